// Connections kept across requests of one worker, keyed by ConnectionParams::pool_key().
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>

#include "redis/connection.hpp"

namespace nativelock::redis {

class Pool {
  public:
    // The pooled connection for these parameters if it is still reusable (same process, no
    // error, socket idle); otherwise a new one replaces it. The read timeout is updated to
    // params.read_timeout. Throws ConnectionError if connecting fails.
    Connection &get(const ConnectionParams &params);

    std::size_t size() const { return connections_.size(); }
    // Connections opened since the pool was created (for tests and phpinfo).
    std::size_t opened() const { return opened_; }

  private:
    std::unordered_map<std::string, std::unique_ptr<Connection>> connections_;
    std::size_t opened_ = 0;
};

}  // namespace nativelock::redis
