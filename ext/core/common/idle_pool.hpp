// Connections kept for reuse across the requests of one worker, keyed by what they connect to,
// and closed once they have stood unused for the idle timeout (issue 14: a worker that once
// talked to a server must not keep a socket to it for the rest of its life).
//
// A connection in use is never closed for being idle, however long the use lasts: whoever uses
// it across calls (a held lock, a waiting acquisition) holds a Pin of its key, and the idle time
// starts when the last Pin ends. Closing is whatever the connection's destructor does; the
// pools' connections send nothing when they belong to another process (fork).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

namespace nativelock {

template <class Connection>
class IdlePool {
  public:
    using Clock = std::chrono::steady_clock;

    // Keeps the connection of one key open while it lives (also one added after the Pin was
    // taken, e.g. a replacement for a broken one). Move-only; the pool must outlive it.
    class Pin {
      public:
        Pin() noexcept = default;
        Pin(Pin &&other) noexcept
            : pool_(std::exchange(other.pool_, nullptr)), key_(std::move(other.key_)) {}
        Pin &operator=(Pin &&other) noexcept {
            if (this != &other) {
                reset();
                pool_ = std::exchange(other.pool_, nullptr);
                key_ = std::move(other.key_);
            }
            return *this;
        }
        Pin(const Pin &) = delete;
        Pin &operator=(const Pin &) = delete;
        ~Pin() { reset(); }

        void reset() noexcept {
            if (pool_) std::exchange(pool_, nullptr)->unpin(key_);
        }
        explicit operator bool() const noexcept { return pool_ != nullptr; }

      private:
        friend class IdlePool;
        Pin(IdlePool *pool, std::string key) : pool_(pool), key_(std::move(key)) {}
        IdlePool *pool_ = nullptr;
        std::string key_;
    };

    IdlePool() = default;
    IdlePool(const IdlePool &) = delete;
    IdlePool &operator=(const IdlePool &) = delete;

    // How long an unused connection is kept. Zero keeps none past the end of the request:
    // close_idle() then closes every unpinned connection and close_idle_on_access() none.
    void set_idle_timeout(Clock::duration timeout) { idle_timeout_ = timeout; }
    Clock::duration idle_timeout() const { return idle_timeout_; }

    // The connection of `key`, now counted as used at `now`; nullptr if there is none.
    Connection *find(const std::string &key, Clock::time_point now) {
        auto it = slots_.find(key);
        if (it == slots_.end()) return nullptr;
        it->second.last_used = now;
        return it->second.connection.get();
    }

    // A connection just opened for `key`, replacing any other (not counted as idle).
    Connection &add(const std::string &key, std::unique_ptr<Connection> connection,
                    Clock::time_point now) {
        Slot &slot = slots_[key];
        slot.connection = std::move(connection);
        slot.last_used = now;
        ++opened_;
        return *slot.connection;
    }

    // Forgets a connection that cannot be reused (broken, inherited across fork).
    void drop(const std::string &key) { slots_.erase(key); }
    void drop_all() { slots_.clear(); }

    Pin pin(const std::string &key) {
        Pin in_use(this, key);  // first: if counting throws, its destructor finds nothing to undo
        ++pins_[key];
        return in_use;
    }
    bool pinned(const std::string &key) const { return pins_.count(key) != 0; }

    // At a request's end: closes every unpinned connection unused for at least the idle
    // timeout (with a zero timeout, every unpinned one). Returns how many.
    std::size_t close_idle(Clock::time_point now = Clock::now()) {
        return close_unused_since(now - idle_timeout_);
    }

    // The same while a request runs, on each access to the pool, after the connection about to
    // be used was found (and so counts as used now); nothing with a zero timeout, which means
    // "at the end of the request". Long-running CLI workers never end their request: this is
    // where their pools shrink.
    std::size_t close_idle_on_access(Clock::time_point now = Clock::now()) {
        if (idle_timeout_ <= Clock::duration::zero()) return 0;
        return close_unused_since(now - idle_timeout_);
    }

    std::size_t size() const { return slots_.size(); }
    // Connections added since the pool was created.
    std::size_t opened() const { return opened_; }
    // Connections closed because they stood unused for the idle timeout.
    std::size_t closed_idle() const { return closed_idle_; }

  private:
    struct Slot {
        std::unique_ptr<Connection> connection;
        Clock::time_point last_used;
    };

    std::size_t close_unused_since(Clock::time_point cutoff) {
        std::size_t closed = 0;
        for (auto it = slots_.begin(); it != slots_.end();) {
            if (it->second.last_used <= cutoff && !pinned(it->first)) {
                it = slots_.erase(it);
                ++closed;
            } else {
                ++it;
            }
        }
        closed_idle_ += closed;
        return closed;
    }

    // The idle time starts over when the last user lets go.
    void unpin(const std::string &key) noexcept {
        auto pin = pins_.find(key);
        if (pin == pins_.end()) return;
        if (--pin->second == 0) pins_.erase(pin);
        auto slot = slots_.find(key);
        if (slot != slots_.end()) slot->second.last_used = Clock::now();
    }

    std::unordered_map<std::string, Slot> slots_;
    std::unordered_map<std::string, unsigned> pins_;
    Clock::duration idle_timeout_ = std::chrono::seconds(60);
    std::size_t opened_ = 0;
    std::size_t closed_idle_ = 0;
};

}  // namespace nativelock
