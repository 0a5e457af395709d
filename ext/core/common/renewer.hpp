// Leases kept alive by a background thread (SPEC §10, auto-renewal): one thread per process
// renews every registered lock at a third of its TTL, on connections of its own, and marks a
// lock lost when a renewal finds it gone or taken. It never calls into PHP.
//
//   - It starts with the first lease and stops (closing its connections) when the last one
//     ends: on release, at request end (locks are released then) and at exit.
//   - A forked child has no renewer thread: the parent's leases are forgotten there (their
//     connections are left to the parent, never spoken on), so only the parent renews them.
//   - A holder that is frozen (SIGSTOP) or killed stops renewing with it: its lock expires at
//     its TTL. On resumption its lease reports lost at once: the time the lock was last known
//     to be ours (the send time of the last renewal that succeeded, plus its TTL) has passed.
//   - Once remove() (Lease::reset()) returns, no renewal of that lease is in flight: the
//     holder's next step (a release, a refresh with another TTL, a new acquisition with the
//     same token) cannot be overtaken by a renewal sent before it.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/process.hpp"

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

// CLOCK_BOOTTIME in ns: like the steady clock, but it also counts time the system spent
// suspended.
std::int64_t boot_clock_ns();

namespace test_hooks {
// Moves boot_clock_ns() forward (a suspend the steady clock did not see). Tests only.
void skew_boot_clock(std::chrono::nanoseconds by);
}  // namespace test_hooks

// The longest a renewal's connect or read may take (seconds): one stalled server delays the
// other leases of the process by at most this much per try.
constexpr double kLongestRenewalWait = 2.0;

// A connection timeout for a renewal: the caller's, capped (0 or less means "none" to the
// drivers, which a renewal cannot afford).
inline double bounded_timeout(double seconds) {
    return seconds > 0 && seconds < kLongestRenewalWait ? seconds : kLongestRenewalWait;
}

// A moment on both clocks: the steady clock schedules renewals, the boot clock (which also
// counts time the host spent suspended) judges how long a lock is trusted. Taken when a
// command that sets a TTL is sent (an acquisition: when its reply is read).
struct Instant {
    std::chrono::steady_clock::time_point steady;
    std::int64_t boot_ns = 0;
    // The boot clock is read first: a delay between the two reads only shortens the trust.
    static Instant now();
};

// Whether a lock whose TTL was written by a call begun at `started` was granted soon enough
// (within a tenth of the TTL) for its lease to count from `started`: a little early, so safe.
// After a longer wait (the TTL may have been written long before the grant) it is set anew.
inline bool granted_promptly(const Instant &started, const Instant &granted,
                             std::chrono::steady_clock::duration ttl) {
    return granted.steady - started.steady <= ttl / 10;
}

// What a lease's holder can read without a round trip (written by the thread).
struct LeaseStatus {
    std::atomic<bool> lost{false};
    // Until when the lock is known to be ours: the send time of the last acquisition or
    // renewal that succeeded, plus its TTL, less a margin for clock drift. On boot_clock_ns():
    // a suspended host (or VM) does not advance the steady clock, but the server's TTL ran on.
    std::atomic<std::int64_t> valid_until_ns{0};

    // Whether that time has passed (by the boot clock).
    bool expired() const;
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

    // Around a refresh by the holder: pause() waits for a renewal in flight and holds the next
    // ones back (a renewal with the old TTL landing after the refresh would undo it). Then
    // resume() goes on with the TTL just set (`sent`: when the refresh was sent) and the
    // renewal that extends to it. Or, when the refresh failed, threw or said the lock is gone
    // (it may still run on the server later), resume_after_unknown() goes on at once at the
    // shorter of the two TTLs (`shorter`, with its renewal; null: the old one is the shorter),
    // trusting the lock no longer than that TTL from the refresh's send. Renewals never shorten
    // a lock, so whichever of the refresh and the renewals the server runs last, the lock lives
    // at least that long.
    void pause() noexcept;
    void resume(std::shared_ptr<Renewal> renewal, std::chrono::steady_clock::duration ttl,
                Instant sent) noexcept;
    void resume_after_unknown(std::shared_ptr<Renewal> shorter,
                              std::chrono::steady_clock::duration shorter_ttl,
                              Instant sent) noexcept;
    // A renewal found the lock gone or taken, or the lock was not renewed in time (a frozen
    // holder, a server that did not answer) and may have expired. Sticky: once said, the
    // renewer stops extending it.
    bool lost() const;
    std::uint64_t renewed() const { return status_ ? status_->renewed.load() : 0; }
    std::uint64_t failed() const { return status_ ? status_->failed.load() : 0; }

  private:
    friend class Renewer;
    Renewer *owner_ = nullptr;
    std::uint64_t id_ = 0;
    process::Tag owner_tag_;
    std::shared_ptr<LeaseStatus> status_;
};

// A lease held back (Lease::pause()) while its holder refreshes the lock to `new_ttl`. Unless
// resume()d with the renewal for the new TTL (or dismiss()ed, the lease being ended by the
// caller), it goes on as after a refresh whose outcome is unknown, at the shorter TTL: `shorter`
// (with `shorter_ttl`) when the new TTL is shorter than the old, else null (and the old TTL).
class PausedLease {
  public:
    PausedLease(Lease &lease, std::chrono::steady_clock::duration new_ttl,
                std::unique_ptr<Renewal> shorter, std::chrono::steady_clock::duration shorter_ttl)
        : lease_(lease), ttl_(new_ttl), shorter_(std::move(shorter)), shorter_ttl_(shorter_ttl) {
        lease_.pause();
        sent_ = Instant::now();
    }
    ~PausedLease() {
        if (!done_) lease_.resume_after_unknown(std::move(shorter_), shorter_ttl_, sent_);
    }
    PausedLease(const PausedLease &) = delete;
    PausedLease &operator=(const PausedLease &) = delete;

    void resume(std::unique_ptr<Renewal> renewal) {
        std::shared_ptr<Renewal> shared(std::move(renewal));  // may throw: then as unknown
        lease_.resume(std::move(shared), ttl_, sent_);
        done_ = true;
    }
    void dismiss() { done_ = true; }

  private:
    Lease &lease_;
    std::chrono::steady_clock::duration ttl_;
    std::shared_ptr<Renewal> shorter_;
    std::chrono::steady_clock::duration shorter_ttl_;
    Instant sent_;
    bool done_ = false;
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
    // says Lost. `since`: when the lock was given its TTL (the acquisition's reply, a refresh's
    // send); the lease trusts it until since + ttl - drift_margin(ttl). Failed
    // renewals are retried every ttl/10 (10 ms … 1 s); once the TTL of the last renewal that
    // succeeded has run out, the lock is marked lost (it may have expired and been taken).
    // Starts the thread if it is not running. Throws std::system_error if no thread can be
    // started.
    Lease start(std::unique_ptr<Renewal> renewal, Clock::duration ttl,
                Instant since = Instant::now());

    // The margin by which a lease is judged lost before its TTL runs out (5 % + 5 ms, at most
    // a third): clock drift between this host and the server, and the time between the
    // server setting a TTL and the moment the holder counts it from.
    static Clock::duration drift_margin(Clock::duration ttl);

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
    void pause(std::uint64_t id) noexcept;
    void resume(std::uint64_t id, std::shared_ptr<Renewal> renewal, Clock::duration ttl,
                Instant sent, bool known) noexcept;
    void wait_for_renewal_of(std::uint64_t id, std::unique_lock<std::mutex> &lock) noexcept;
    void run() noexcept;
    void join_thread(std::unique_lock<std::mutex> &lock) noexcept;
    static void *thread_main(void *self) noexcept;
    static void at_fork_prepare() noexcept;
    static void at_fork_parent() noexcept;
    static void at_fork_child() noexcept;

    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace nativelock::renew
