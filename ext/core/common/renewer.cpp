#include "common/renewer.hpp"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <system_error>
#include <vector>

#include "common/process.hpp"

namespace nativelock::renew {

namespace {

constexpr auto kShortestInterval = std::chrono::milliseconds(10);
constexpr auto kLongestRetry = std::chrono::seconds(1);

// Every Renewer of the process, for the fork handlers.
std::mutex &registry_mutex() {
    static auto *m = new std::mutex;
    return *m;
}
std::set<Renewer *> &registry() {
    static auto *r = new std::set<Renewer *>;
    return *r;
}

std::atomic<std::int64_t> boot_clock_skew{0};

}  // namespace

std::int64_t boot_clock_ns() {
    timespec ts{};
#ifdef CLOCK_BOOTTIME
    clock_gettime(CLOCK_BOOTTIME, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec +
           boot_clock_skew.load(std::memory_order_relaxed);
}

void test_hooks::skew_boot_clock(std::chrono::nanoseconds by) {
    boot_clock_skew.fetch_add(by.count(), std::memory_order_relaxed);
}

Instant Instant::now() {
    Instant i;
    i.boot_ns = boot_clock_ns();
    i.steady = std::chrono::steady_clock::now();
    return i;
}

bool LeaseStatus::expired() const {
    return boot_clock_ns() >= valid_until_ns.load(std::memory_order_acquire);
}

struct Renewer::Entry {
    std::shared_ptr<Renewal> renewal;
    std::shared_ptr<LeaseStatus> status;
    Clock::duration ttl;
    Clock::duration interval;
    // The shortest TTL of a refresh whose outcome was unknown: it may still run on the server
    // (late), so the lock is trusted no longer than this after any send, for good.
    Clock::duration cap = Clock::duration::max();
    Clock::time_point due;
    // Until when the lock is known to be ours, on the steady clock (the boot clock's is in
    // status->valid_until_ns).
    Clock::time_point valid_until;
    bool paused = false;  // the holder is refreshing it

    // How long after a send the lock is trusted: the TTL (capped), less the drift margin.
    Clock::duration trust() const {
        const Clock::duration t = std::min(ttl, cap);
        return t - drift_margin(t);
    }
    // Renewals come at a third of the (capped) TTL.
    void set_ttl(Clock::duration new_ttl) {
        ttl = new_ttl;
        interval = std::max<Clock::duration>(std::min(ttl, cap) / 3, kShortestInterval);
    }
    // The lock is trusted until `sent` + trust(), on both clocks (with `only_sooner`: never
    // later than it already was).
    void trust_from(Instant sent, bool only_sooner = false) {
        const Clock::duration t = trust();
        Clock::time_point steady = sent.steady + t;
        std::int64_t boot =
            sent.boot_ns + std::chrono::duration_cast<std::chrono::nanoseconds>(t).count();
        if (only_sooner) {
            steady = std::min(steady, valid_until);
            boot = std::min(boot, status->valid_until_ns.load(std::memory_order_acquire));
        }
        valid_until = steady;
        status->valid_until_ns.store(boot, std::memory_order_release);
    }
};

struct Renewer::State {
    std::mutex mutex;
    // A pointer: a child of fork() replaces it without destroying it (the parent's thread may
    // have been waiting on it, and glibc waits for a condition's waiters).
    std::unique_ptr<std::condition_variable> wake = std::make_unique<std::condition_variable>();
    std::map<std::uint64_t, Entry> leases;
    std::uint64_t next_id = 1;
    // A thread runs the loop (it clears this when it decides to exit, then closes its
    // connections without the mutex; the next start() joins it before starting another).
    bool running = false;
    bool joinable = false;
    bool joining = false;  // a caller is joining the thread that left (others wait for it)
    bool stop = false;
    // The lease whose renewal is on the wire now (0: none); remove() waits for it to land.
    std::uint64_t renewing = 0;
    pthread_t thread{};
    // Only the thread touches the connections (and the child of a fork, which has no thread).
    std::unique_ptr<Connections> connections = std::make_unique<Connections>();
    std::atomic<std::size_t> connection_count{0};
    // What a child of fork() inherited mid-use from its parent's thread: never touched, never
    // freed (kept reachable here rather than leaked).
    std::vector<Connections *> inherited_connections;
    std::vector<std::condition_variable *> inherited_wakes;
    std::uint64_t threads_started = 0;
    std::uint64_t renewed = 0;
    std::uint64_t failed = 0;
    std::uint64_t lost = 0;
};

void Lease::pause() noexcept {
    if (owner_ && id_ != 0 && owner_tag_ == process::current_tag()) owner_->pause(id_);
}

void Lease::resume_after_unknown(std::shared_ptr<Renewal> shorter,
                                 std::chrono::steady_clock::duration shorter_ttl,
                                 Instant sent) noexcept {
    if (owner_ && id_ != 0 && owner_tag_ == process::current_tag())
        owner_->resume(id_, std::move(shorter), shorter_ttl, sent, false);
}

void Lease::resume(std::shared_ptr<Renewal> renewal, std::chrono::steady_clock::duration ttl,
                   Instant sent) noexcept {
    if (owner_ && id_ != 0 && owner_tag_ == process::current_tag())
        owner_->resume(id_, std::move(renewal), ttl, sent, true);
}

Lease &Lease::operator=(Lease &&other) noexcept {
    if (this != &other) {
        reset();
        owner_ = other.owner_;
        id_ = other.id_;
        owner_tag_ = other.owner_tag_;
        status_ = std::move(other.status_);
        other.owner_ = nullptr;
        other.id_ = 0;
    }
    return *this;
}

bool Lease::lost() const {
    if (!status_) return false;
    if (status_->lost.load(std::memory_order_acquire)) return true;
    if (!status_->expired()) return false;
    // Not renewed in time (this process was frozen, or its renewals failed): the lock may have
    // expired and been taken. Said once, said for good: the renewer drops it at its next turn.
    status_->lost.store(true, std::memory_order_release);
    return true;
}

void Lease::reset() noexcept {
    // In a forked child the lease is the parent's: there is nothing to stop here.
    if (owner_ && id_ != 0 && owner_tag_ == process::current_tag()) owner_->remove(id_);
    owner_ = nullptr;
    id_ = 0;
    status_.reset();
}

Renewer &Renewer::instance() {
    static Renewer *renewer = new Renewer;
    return *renewer;
}

Renewer::Renewer() : state_(std::make_unique<State>()) {
    static std::once_flag fork_handlers;
    std::call_once(fork_handlers,
                   [] { pthread_atfork(at_fork_prepare, at_fork_parent, at_fork_child); });
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().insert(this);
}

Renewer::~Renewer() {
    shutdown();
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().erase(this);
}

Renewer::Clock::duration Renewer::drift_margin(Clock::duration ttl) {
    return std::min<Clock::duration>(ttl / 20 + std::chrono::milliseconds(5), ttl / 3);
}

Lease Renewer::start(std::unique_ptr<Renewal> renewal, Clock::duration ttl, Instant since) {
    Entry entry;
    entry.renewal = std::move(renewal);
    entry.status = std::make_shared<LeaseStatus>();
    entry.set_ttl(ttl);
    entry.trust_from(since);
    entry.due = std::max(since.steady + entry.interval, Clock::now());

    std::unique_lock<std::mutex> lock(state_->mutex);
    // The last thread may be on its way out (closing its connections): wait for it.
    if (!state_->running) join_thread(lock);
    if (!state_->running) {
        // Signals go to PHP's thread: the renewer blocks them all (PHP's handlers, timeouts and
        // pcntl signals then never land on it).
        sigset_t all, previous;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &previous);
        int rc = pthread_create(&state_->thread, nullptr, thread_main, this);
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        if (rc != 0) throw std::system_error(rc, std::generic_category(), "renewer thread");
        state_->running = true;
        state_->joinable = true;
        ++state_->threads_started;
    }
    Lease lease;
    lease.owner_ = this;
    lease.id_ = state_->next_id++;
    lease.owner_tag_ = process::current_tag();
    lease.status_ = entry.status;
    state_->leases.emplace(lease.id_, std::move(entry));
    state_->wake->notify_all();
    return lease;
}

void Renewer::remove(std::uint64_t id) noexcept {
    std::unique_lock<std::mutex> lock(state_->mutex);
    if (state_->leases.erase(id) != 0) state_->wake->notify_all();
    wait_for_renewal_of(id, lock);
}

// A renewal of this lease already sent must land before the holder's next step: sent with the
// old TTL and landing after a refresh, it would cut the lock's life short (or after a release
// and a new acquisition with the same token, extend the new lock with the old TTL). It takes at
// most the renewal connection's timeouts (bounded_timeout()).
void Renewer::wait_for_renewal_of(std::uint64_t id, std::unique_lock<std::mutex> &lock) noexcept {
    while (state_->renewing == id) state_->wake->wait(lock);
}

void Renewer::pause(std::uint64_t id) noexcept {
    std::unique_lock<std::mutex> lock(state_->mutex);
    auto it = state_->leases.find(id);
    if (it != state_->leases.end()) it->second.paused = true;
    wait_for_renewal_of(id, lock);
}

void Renewer::resume(std::uint64_t id, std::shared_ptr<Renewal> renewal, Clock::duration ttl,
                     Instant sent, bool known) noexcept {
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto it = state_->leases.find(id);
    if (it == state_->leases.end()) return;  // lost meanwhile
    Entry &entry = it->second;
    entry.paused = false;
    if (known) {
        if (renewal) entry.renewal = std::move(renewal);
        entry.set_ttl(ttl);
        entry.trust_from(sent);
        entry.due = sent.steady + entry.interval;
    } else {
        // The refresh may still run on the server, before or after the renewals: from now on
        // the lock is trusted no longer than the shorter TTL (`ttl`) after any send, and renewed
        // at once at that TTL (renewals never shorten, so the lock then lives at least that long
        // whatever the server runs last).
        entry.cap = std::min(entry.cap, ttl);
        if (renewal) {
            entry.renewal = std::move(renewal);  // extends to the shorter TTL
            entry.set_ttl(ttl);
        } else {
            entry.set_ttl(entry.ttl);  // the interval follows the cap
        }
        entry.trust_from(sent, true);
        entry.due = Clock::now();
    }
    state_->wake->notify_all();
}

// Joins the thread if it has left its loop (or was told to stop); one caller joins, others
// wait for it. Called with the mutex held.
void Renewer::join_thread(std::unique_lock<std::mutex> &lock) noexcept {
    while (state_->joining) state_->wake->wait(lock);
    // Another caller may have joined the old thread and started a new one meanwhile: that one
    // is not to be joined (except by shutdown(), which told it to stop).
    if (!state_->joinable || (state_->running && !state_->stop)) return;
    state_->joining = true;
    pthread_t thread = state_->thread;
    lock.unlock();
    pthread_join(thread, nullptr);
    lock.lock();
    state_->joinable = false;
    state_->joining = false;
    state_->wake->notify_all();
}

void Renewer::shutdown() noexcept {
    std::unique_lock<std::mutex> lock(state_->mutex);
    state_->stop = true;
    state_->leases.clear();
    state_->wake->notify_all();
    join_thread(lock);
    state_->stop = false;
}

RenewerStats Renewer::stats() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    RenewerStats s;
    s.running = state_->running;
    s.leases = state_->leases.size();
    s.connections = state_->connection_count.load();
    s.threads_started = state_->threads_started;
    s.renewed = state_->renewed;
    s.failed = state_->failed;
    s.lost = state_->lost;
    return s;
}

void *Renewer::thread_main(void *self) noexcept {
    pthread_setname_np(pthread_self(), "nativelock-renew");
    static_cast<Renewer *>(self)->run();
    return nullptr;
}

void Renewer::run() noexcept {
    State &st = *state_;
    std::unique_lock<std::mutex> lock(st.mutex);
    for (;;) {
        if (st.stop || st.leases.empty()) break;
        auto next = st.leases.end();
        for (auto it = st.leases.begin(); it != st.leases.end(); ++it) {
            if (!it->second.paused &&
                (next == st.leases.end() || it->second.due < next->second.due))
                next = it;
        }
        if (next == st.leases.end()) {
            st.wake->wait(lock);  // every lease is being refreshed by its holder
            continue;
        }
        // A copy: wait_until() reads its deadline again after waking, when remove() may have
        // erased the entry it came from.
        const Clock::time_point due = next->second.due;
        if (due > Clock::now()) {
            st.wake->wait_until(lock, due);
            continue;
        }
        const std::uint64_t id = next->first;
        const Instant sent = Instant::now();
        if (next->second.status->lost.load(std::memory_order_acquire) ||
            sent.steady >= next->second.valid_until || next->second.status->expired()) {
            // Too late (this thread or the whole process was held up, or renewals kept
            // failing): the lock may have expired and been taken, so it is not extended.
            ++st.lost;
            next->second.status->lost.store(true, std::memory_order_release);
            st.leases.erase(next);
            continue;
        }
        std::shared_ptr<Renewal> renewal = next->second.renewal;
        // The network round trip runs without the mutex: PHP's thread (and fork()) never waits
        // for a server, except in remove() for this very lease.
        st.renewing = id;
        lock.unlock();
        Outcome outcome;
        try {
            outcome = renewal->renew(*st.connections);
        } catch (...) {
            outcome = Outcome::Failed;
        }
        st.connection_count.store(st.connections->size());
        lock.lock();
        st.renewing = 0;
        st.wake->notify_all();  // a remove() waiting for this renewal
        auto it = st.leases.find(id);
        if (it == st.leases.end()) continue;  // released meanwhile
        Entry &entry = it->second;
        const auto now = Clock::now();
        if (entry.status->lost.load(std::memory_order_acquire)) outcome = Outcome::Lost;
        switch (outcome) {
            case Outcome::Renewed:
                ++st.renewed;
                entry.status->renewed.fetch_add(1);
                // The server set the new TTL after we sent: counting from the send is safe.
                entry.trust_from(sent);
                entry.due = now + entry.interval;
                break;
            case Outcome::Failed:
                ++st.failed;
                entry.status->failed.fetch_add(1);
                if (now < entry.valid_until) {
                    entry.due = std::min(
                        now + std::clamp<Clock::duration>(std::min(entry.ttl, entry.cap) / 10,
                                                          kShortestInterval, kLongestRetry),
                        entry.valid_until);
                    break;
                }
                // The last renewal's TTL ran out: the lock may have expired and been taken.
                [[fallthrough]];
            case Outcome::Lost:
                ++st.lost;
                entry.status->lost.store(true, std::memory_order_release);
                st.leases.erase(it);
                break;
        }
    }
    // No lease left (or shutdown): the thread ends, closing its connections outside the mutex.
    st.running = false;
    lock.unlock();
    st.connections->clear();
    st.connection_count.store(0);
}

// fork(): no renewal may be half-way through the mutex-protected state while the child copies
// it, and the child starts with no thread and no leases (the parent's locks are the parent's).
void Renewer::at_fork_prepare() noexcept {
    registry_mutex().lock();
    for (Renewer *r : registry()) r->state_->mutex.lock();
}

void Renewer::at_fork_parent() noexcept {
    for (Renewer *r : registry()) r->state_->mutex.unlock();
    registry_mutex().unlock();
}

void Renewer::at_fork_child() noexcept {
    for (Renewer *r : registry()) {
        State &st = *r->state_;
        st.leases.clear();
        st.running = false;
        st.joinable = false;
        st.joining = false;
        st.renewing = 0;
        st.stop = false;
        // The parent's thread may have been using these connections when we forked: they are
        // left untouched (never spoken on, never closed) and a fresh set starts here.
        st.inherited_connections.push_back(st.connections.release());
        st.inherited_wakes.push_back(st.wake.release());
        st.wake = std::make_unique<std::condition_variable>();
        st.connections = std::make_unique<Connections>();
        st.connection_count.store(0);
        st.mutex.unlock();
    }
    registry_mutex().unlock();
}

}  // namespace nativelock::renew
