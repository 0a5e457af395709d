// Connections kept across requests of one worker, keyed by ConnectionParams::pool_key(), and
// closed after standing unused for the idle timeout (common/idle_pool.hpp).
#pragma once

#include <cstddef>

#include "common/idle_pool.hpp"
#include "redis/connection.hpp"

namespace nativelock::redis {

class Pool {
  public:
    using Clock = IdlePool<Connection>::Clock;
    // Keeps the connection of a held lock or a wait in progress open (see IdlePool::Pin).
    using Pin = IdlePool<Connection>::Pin;

    // The pooled connection for these parameters if it is still reusable (same process, no
    // error, socket idle: Connection::reusable_for_next_command()); otherwise a new one replaces
    // it. The read timeout is updated to params.read_timeout. Other connections idle past the
    // timeout are closed. Throws ConnectionError if connecting fails.
    Connection &get(const ConnectionParams &params, Clock::time_point now = Clock::now());

    Pin pin(const ConnectionParams &params) { return connections_.pin(params.pool_key()); }

    void set_idle_timeout(Clock::duration timeout) { connections_.set_idle_timeout(timeout); }
    // At request end: closes the unpinned connections idle for the timeout (all with zero).
    std::size_t close_idle(Clock::time_point now = Clock::now()) {
        return connections_.close_idle(now);
    }

    std::size_t size() const { return connections_.size(); }
    // Connections opened since the pool was created (for tests and phpinfo).
    std::size_t opened() const { return connections_.opened(); }
    std::size_t closed_idle() const { return connections_.closed_idle(); }

  private:
    IdlePool<Connection> connections_;
};

}  // namespace nativelock::redis
