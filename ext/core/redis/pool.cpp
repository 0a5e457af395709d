#include "redis/pool.hpp"

#include <memory>

namespace nativelock::redis {

Connection &Pool::get(const ConnectionParams &params, Clock::time_point now) {
    const std::string &key = params.pool_key();
    Connection *pooled = connections_.find(key, now);  // first: now it counts as used
    connections_.close_idle_on_access(now);
    if (pooled) {
        if (pooled->reusable_for_next_command()) {
            pooled->set_read_timeout(params.read_timeout);
            return *pooled;
        }
        // Broken, closed by the server, or inherited across fork: dropped without a word.
        connections_.drop(key);
    }
    return connections_.add(key, std::make_unique<Connection>(params), now);
}

}  // namespace nativelock::redis
