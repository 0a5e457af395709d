// Leases kept alive by a background thread (SPEC §10, auto-renewal): one thread per process
// renews every registered lock at a third of its TTL, on connections of its own, and marks a
// lock lost when a renewal finds it gone or taken. It never calls into PHP.
//
//   - It starts with the first lease and stops (closing its connections) when the last one
//     ends: on release, at request end (locks are released then) and at exit.
//   - A forked child has no renewer thread: the parent's leases are forgotten there (their
//     connections are left to the parent, never spoken on), so only the parent renews them.
//   - A holder that is frozen (SIGSTOP) or killed stops renewing with it: its lock expires at
//     its TTL. On resumption the next renewal finds it gone and marks it lost.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

namespace nativelock::renew {

enum class Outcome {
    Renewed,  // the lock is still ours, with a fresh TTL
    Lost,     // gone or taken by someone else: it will not come back
    Failed,   // could not ask (connection, server error): tried again soon
};

// The renewer thread's own connections, by endpoint, kept while it runs. Only the thread
// touches them.
class Connections {
  public:
    // The connection under `key`, made by `make()` (returning std::unique_ptr<T>) if missing.
    template <class T, class Make>
    T &get(const std::string &key, Make &&make) {
        auto it = connections_.find(key);
        if (it == connections_.end()) {
            std::shared_ptr<T> made(make());
            it = connections_.emplace(key, std::static_pointer_cast<void>(made)).first;
        }
        return *static_cast<T *>(it->second.get());
    }
    // Forgets (closes) a connection that failed; the next get() opens a new one.
    void drop(const std::string &key) { connections_.erase(key); }
    void clear() { connections_.clear(); }
    std::size_t size() const { return connections_.size(); }

  private:
    std::unordered_map<std::string, std::shared_ptr<void>> connections_;
};

// One lock to keep alive: what its backend sends to extend it while it is still ours.
class Renewal {
  public:
    virtual ~Renewal() = default;
    // Runs on the renewer thread. May throw: counted as Failed.
    virtual Outcome renew(Connections &connections) = 0;
};

class Renewer;

// What a lease's holder can read without a round trip (written by the thread).
struct LeaseStatus {
    std::atomic<bool> lost{false};
    std::atomic<std::uint64_t> renewed{0};
    std::atomic<std::uint64_t> failed{0};
};

// A registered lease; destroying (or reset()ting) it stops the renewal. In a forked child it
// is inert (the child does not renew the parent's locks).
class Lease {
  public:
    Lease() = default;
    Lease(Lease &&other) noexcept { *this = std::move(other); }
    Lease &operator=(Lease &&other) noexcept;
    Lease(const Lease &) = delete;
    Lease &operator=(const Lease &) = delete;
    ~Lease() { reset(); }

    void reset() noexcept;
    bool active() const { return id_ != 0; }
    // A renewal found the lock gone or taken (sticky).
    bool lost() const { return status_ && status_->lost.load(std::memory_order_acquire); }
    std::uint64_t renewed() const { return status_ ? status_->renewed.load() : 0; }
    std::uint64_t failed() const { return status_ ? status_->failed.load() : 0; }

  private:
    friend class Renewer;
    Renewer *owner_ = nullptr;
    std::uint64_t id_ = 0;
    pid_t pid_ = 0;
    std::shared_ptr<LeaseStatus> status_;
};

struct RenewerStats {
    bool running = false;
    std::size_t leases = 0;       // locks renewed now
    std::size_t connections = 0;  // the thread's connections now
    std::uint64_t threads_started = 0;
    std::uint64_t renewed = 0;
    std::uint64_t failed = 0;
    std::uint64_t lost = 0;
};

class Renewer {
  public:
    using Clock = std::chrono::steady_clock;

    // The process's renewer (never destroyed: the thread may outlive static destructors at
    // exit, and it touches nothing of PHP's).
    static Renewer &instance();

    // Renews `renewal` every ttl/3 (at least every 10 ms) until the lease ends or a renewal
    // says Lost. Failed renewals are retried every ttl/10 (10 ms … 1 s); once a whole TTL has
    // passed since the last renewal that succeeded, the lock is marked lost (it may have expired
    // and been taken). Starts the thread if it is not running. Throws std::system_error if no
    // thread can be started.
    Lease start(std::unique_ptr<Renewal> renewal, Clock::duration ttl);

    // Stops the thread and waits for it (module shutdown); leases left are forgotten.
    void shutdown() noexcept;

    RenewerStats stats() const;

    // Renewer instances of their own, for tests (the thread is stopped by the destructor).
    Renewer();
    ~Renewer();
    Renewer(const Renewer &) = delete;
    Renewer &operator=(const Renewer &) = delete;

  private:
    friend class Lease;
    struct Entry;
    void remove(std::uint64_t id) noexcept;
    void run() noexcept;
    static void *thread_main(void *self) noexcept;
    static void at_fork_prepare() noexcept;
    static void at_fork_parent() noexcept;
    static void at_fork_child() noexcept;

    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace nativelock::renew
