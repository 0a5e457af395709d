#include "redis/pool.hpp"

namespace nativelock::redis {

Connection &Pool::get(const ConnectionParams &params) {
    const std::string &key = params.pool_key();
    auto it = connections_.find(key);
    if (it != connections_.end()) {
        if (it->second->reusable()) {
            it->second->set_read_timeout(params.read_timeout);
            return *it->second;
        }
        // Broken, closed by the server, or inherited across fork: dropped without a word.
        connections_.erase(it);
    }
    auto connection = std::make_unique<Connection>(params);
    ++opened_;
    Connection &ref = *connection;
    connections_[key] = std::move(connection);
    return ref;
}

}  // namespace nativelock::redis
