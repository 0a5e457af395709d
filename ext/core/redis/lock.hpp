// The RedisLock protocol, wire-compatible with the original gist:
//   acquire  SET <key> <value> NX EX <ttl>
//   release  compare-and-delete script (deletes only if the value is still ours)
// plus refresh / remaining lifetime / ownership checks and a fair, queued wait:
//   - a waiter that finds the key taken enters a FIFO queue beside it (a sorted set
//     queue_key(key), ordered by arrival on the server's clock) and keeps a lease on its place
//     (alive_key(key)); a waiter whose lease ran out (it died) is dropped by the next script;
//   - a release with a live queue does not free the key: it hands it to the queue's head,
//     so exactly one waiter wakes and nobody barges past the queue. If the head's wake channel
//     has a subscriber (PUBSUB NUMSUB), the key is set to the head's value with the head's TTL
//     and the grant is PUBLISHed: the head holds it as soon as the message arrives, without
//     another round trip. No subscriber (its process is gone): the next waiter is tried. A
//     waiter polling alone, a fencing waiter, or one whose TTL exceeds kGrantMaxTtlSeconds is
//     handed the key for a claim window (kClaimWindowMs) and claims it with its TTL on its
//     next call.
//   Clients of the original protocol cannot be queued: they take a free key with SET NX and
//   free it with DEL, which the queue's head notices on its next poll (at most 100 ms).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/deadline.hpp"
#include "common/idle_pool.hpp"
#include "common/renewer.hpp"
#include "redis/connection.hpp"
#include "redis/params.hpp"

namespace nativelock::redis {

// The waiters' queue and their leases, beside the lock's key.
std::string queue_key(std::string_view key);
std::string alive_key(std::string_view key);
// The fencing counter of a key: "nativelock:fence:" + key, an integer INCRemented by every
// fenced acquisition (in the same script as the acquisition, so no later acquisition can get a
// smaller token). It never expires. The prefix is that of the queue keys, which no lock key of
// the original classes ("redislock:…") can be.
std::string fence_key(std::string_view key);

// How long a handed-over key waits for its new holder to claim it, and how long a waiter's
// place in the queue lasts without a renewal (every poll renews it).
constexpr long long kClaimWindowMs = 500;
constexpr long long kWaiterLeaseMs = 2000;
// The longest TTL a hand-over grants at once (waiters with longer TTLs, and fencing waiters,
// are handed the key for a claim window and claim it with a call).
constexpr long long kGrantMaxTtlSeconds = 60;
// How often a waiter behind the head renews its place (the head polls 5 → 100 ms).
constexpr int kQueuedPollMs = 500;

// The Lua scripts and their SHA1 digests (EVALSHA first, EVAL on NOSCRIPT).
struct Script {
    const char *source;
    const char *sha1;
};
extern const Script kReleaseScript;  // KEYS=key,queue,alive ARGV=value,claim ms → 0/1/2 (handed)
extern const Script kQueuedAcquireScript;  // see AcquireWait
extern const Script kLeaveQueueScript;     // see AcquireWait::leave_queue
extern const Script kRefreshScript;        // KEYS[1]=key ARGV[1]=value ARGV[2]=ttl ms → 1/0
extern const Script kExtendScript;         // as kRefreshScript, never shortening → 1/0
extern const Script kFencedAcquireScript;  // KEYS=key,fence ARGV=value,ttl s → token or 0
extern const Script kLifetimeScript;  // KEYS[1]=key ARGV[1]=value → pttl ms, or -3 if not ours

// Runs a script by digest, loading it with EVAL if the server does not know it. Server
// errors throw ProtocolError.
Reply run_script(Connection &conn, const Script &script, std::string_view key,
                 std::initializer_list<std::string_view> args);
Reply run_script(Connection &conn, const Script &script,
                 std::initializer_list<std::string_view> keys,
                 std::initializer_list<std::string_view> args);

// One SET NX EX attempt. Throws ProtocolError on a server error (e.g. invalid expire time).
bool try_acquire(Connection &conn, std::string_view key, std::string_view value,
                 long long ttl_seconds);
// The same (SET NX EX, in a script) and, if it took the key, INCR fence_key(key) in the same
// script: returns the new fencing token (>= 1), or 0 if the key was taken.
long long try_acquire_fenced(Connection &conn, std::string_view key, std::string_view value,
                             long long ttl_seconds);

// Deletes the key if its value is still `value`, or hands it to the head of its queue.
bool release(Connection &conn, std::string_view key, std::string_view value);

// Sets the key's expiry to ttl_ms if its value is still ours.
bool refresh(Connection &conn, std::string_view key, std::string_view value, long long ttl_ms);
// Auto-renewal: like refresh(), but a key that has more than ttl_ms left keeps it (a renewal
// the server runs late, after a refresh to a longer TTL, must not cut it back). True while the
// key holds `value`.
bool extend_at_least(Connection &conn, std::string_view key, std::string_view value,
                     long long ttl_ms);

// Milliseconds the key has left if its value is still ours; nothing if it is gone or not
// ours; -1 if it has no expiry.
std::optional<long long> remaining_ms(Connection &conn, std::string_view key,
                                      std::string_view value);

// Whether the key still holds our value.
bool is_held(Connection &conn, std::string_view key, std::string_view value);

// The value the key holds now (its holder's token), or nothing if it is free.
std::optional<std::string> current_value(Connection &conn, std::string_view key);

// Frees the key whoever holds it, handing it to the head of its queue like a release does.
// Returns whether it was held.
bool force_release(Connection &conn, std::string_view key);

struct WaitStats {
    int attempts = 0;
    int notifications = 0;
};

enum class WaitOutcome { Acquired, TimedOut, Interrupted };

// The connection a process's waiters are woken on: subscribed to a channel of its own (one per
// process and server), kept across waits and requests. Every live one is known process-wide: in the
// child of a fork() its socket is closed at once (pthread_atfork). A child that lives on must not
// keep its parent's subscriptions open on the server, where a hand-over would take one for a live
// waiter after the parent died.
struct Subscriber {
    Subscriber();
    ~Subscriber();
    Subscriber(const Subscriber &) = delete;
    Subscriber &operator=(const Subscriber &) = delete;

    std::unique_ptr<Connection> conn;
    std::string channel;
    bool subscribed = false;
    std::optional<Deadline> subscribe_until;
};

class SubscriberPool {
  public:
    using Clock = IdlePool<Subscriber>::Clock;
    // Keeps a subscriber open while a wait uses it (see IdlePool::Pin).
    using Pin = IdlePool<Subscriber>::Pin;

    // The subscriber for these parameters, subscribed; nullptr when `interrupted` said so before
    // the subscription was confirmed (call again to go on). A broken one, or one inherited
    // across fork, is replaced; other subscribers idle past the timeout are closed.
    // Throws ConnectionError.
    Subscriber *get(const ConnectionParams &params, const std::function<bool()> &interrupted);
    // Forgets a subscriber whose connection failed.
    void drop(const ConnectionParams &params);
    Pin pin(const ConnectionParams &params) { return subscribers_.pin(params.pool_key()); }

    void set_idle_timeout(Clock::duration timeout) { subscribers_.set_idle_timeout(timeout); }
    // At request end: closes the unpinned subscribers idle for the timeout (all with zero).
    std::size_t close_idle(Clock::time_point now = Clock::now()) {
        return subscribers_.close_idle(now);
    }

    std::size_t size() const { return subscribers_.size(); }
    std::size_t opened() const { return subscribers_.opened(); }
    std::size_t closed_idle() const { return subscribers_.closed_idle(); }

  private:
    IdlePool<Subscriber> subscribers_;
};

// What the queued waits of every lock format share: the wake-up subscriber (pinned for the whole
// wait, also while `interrupted` handed control back: a signal handler's own lock() sweeps the
// same pool), polling alone once it failed, and the sleep between attempts.
enum class WakeWait { Woken, Granted, Elapsed, Interrupted };
class WakeChannel {
  public:
    // `subscribers` may be null (a pool of this wait's own).
    WakeChannel(const ConnectionParams &params, SubscriberPool *subscribers);

    // The subscriber to queue with, subscribed; nullptr once it failed (the wait goes on by
    // polling alone). Sets `was_interrupted` (and returns nullptr) when `interrupted` said so.
    Subscriber *subscriber(const std::function<bool()> &interrupted, bool &was_interrupted);
    // The channel a release PUBLISHes on to wake this wait ("-" when polling alone).
    static std::string_view channel(const Subscriber *sub) {
        if (!sub) return "-";
        return sub->channel;
    }

    // How long to sleep before the next attempt: the queue's head its poll interval (5 ms after
    // a wake, doubling to 100 ms), or until `wake_in_ms` (an expiry; ignored if negative) if
    // sooner; the others kQueuedPollMs (they only renew their place); never past the deadline.
    int interval_ms(bool head, long long wake_in_ms, const Deadline &deadline) const;
    // Sleeps up to wait_ms or until a message on `sub` is `value` (Woken: try again) or, if
    // given, `grant` (Granted: the key is ours); others are stale, or a nested wait's, and
    // skipped. Without a subscriber it just sleeps. A subscriber that fails is dropped from the
    // pool. Counts wakes in `stats`.
    WakeWait sleep(Subscriber *sub, std::string_view value, int wait_ms,
                   const std::function<bool()> &interrupted, WaitStats &stats,
                   std::string_view grant = {});
    // Closes the subscriber (a wait that could not leave the queue: a hand-over to its place
    // then reaches nobody and goes to the next waiter).
    void drop_subscriber() { subscribers_->drop(params_); }

  private:
    ConnectionParams params_;
    std::unique_ptr<SubscriberPool> own_subscribers_;
    SubscriberPool *subscribers_;
    SubscriberPool::Pin in_use_;
    bool failed_ = false;
    int poll_ms_ = 5;
};

// Acquires, waiting until `deadline` if the key is taken. The first attempt is a plain SET NX
// EX (one round trip), unless this process's last acquisition of the key had to wait: then it
// joins the queue at once (the queue's script takes a free key nobody waits for). Then the waiter
// joins the key's queue and is woken on its subscriber only when a release hands it the key; it
// also retries on a short adaptive poll (5 → 100 ms, renewing its place) and at the key's expiry,
// for releasers that do not hand over. A final attempt is made at the deadline, after which the
// waiter has left the queue.
//
// `interrupted` is asked between attempts, before each poll and whenever a signal interrupts
// one; true returns Interrupted with the waiter still queued. The caller runs what is pending
// and calls wait() again with the SAME deadline (its place in the queue is kept), or calls
// leave_queue() if it gives up.
class AcquireWait {
  public:
    // `subscribers` may be null (a pool of this wait's own).
    // `fencing`: every way of acquiring (the first SET NX, the queued script, the claim of a key
    // handed over, the claim when leaving the queue) also INCRs fence_key(key) in the same
    // script; token() is then the acquisition's fencing token.
    AcquireWait(const ConnectionParams &params, std::string key, std::string value,
                long long ttl_seconds, SubscriberPool *subscribers = nullptr, bool fencing = false);

    // A wait still queued when it ends (an exception, a fork) closes its subscriber: the
    // place it leaves behind until its lease runs out is then skipped by a hand-over.
    ~AcquireWait();
    AcquireWait(const AcquireWait &) = delete;
    AcquireWait &operator=(const AcquireWait &) = delete;

    // The fencing token of the acquisition (0 without fencing or before it acquired).
    long long token() const { return token_; }
    // After Acquired: a moment no later than the one the key's TTL started from (the send of
    // the command that set it, or for a hand-over the send of our last call before it).
    const renew::Instant &held_since() const { return sent_; }

    // `conn` is the command connection; it may differ between calls (fetch it again from the
    // pool after running user code).
    WaitOutcome wait(Connection &conn, const Deadline &deadline,
                     const std::function<bool()> &interrupted, WaitStats *stats = nullptr);

    // Gives up: leaves the queue; a key handed over meanwhile is passed on to the next waiter in
    // the same script.
    void leave_queue(Connection &conn);

  private:
    WaitOutcome wait_for_key(Connection &conn, const Deadline &deadline,
                             const std::function<bool()> &interrupted, WaitStats *stats);
    // Leaves the queue; true if the key was handed to us meanwhile (then it is claimed).
    bool leave_queue_keeping(Connection &conn);
    void new_id();
    void end_wait();  // no longer under way, for ContendedKeys

    bool fencing_;
    long long token_ = 0;
    std::string key_;
    std::string value_;
    long long ttl_seconds_;
    std::string ttl_;
    std::string queue_;
    std::string alive_;
    std::string fence_;
    std::string contention_key_;  // the server and the key, for the process's ContendedKeys
    WakeChannel wake_;
    std::string member_;  // "<ttl>|<wake channel>[/<id>]|<value>": what a hand-over needs
    std::string ticket_;  // our place: arrival time on the server's clock, kept across polls
    // This wait's id in its member and its grant message ("+<id>|<value>"): a grant meant for
    // an earlier wait with the same value, or for this one before the key was taken from it
    // again, must not count. A new id whenever our place may have been handed over unseen.
    std::string id_;
    std::string grant_;
    renew::Instant sent_;  // when the last command that could acquire was sent
    bool queued_ = false;
    bool first_attempt_done_ = false;
    bool waited_ = false;   // an attempt found the key taken (or we had to queue)
    bool counted_ = false;  // counted as a wait under way (ContendedKeys)
};

// One AcquireWait::wait() (tests and callers that have nothing to run on an interrupt); leaves
// the queue unless it acquired.
WaitOutcome acquire_waiting(Connection &conn, const ConnectionParams &params, std::string_view key,
                            std::string_view value, long long ttl_seconds, const Deadline &deadline,
                            const std::function<bool()> &interrupted, WaitStats *stats = nullptr,
                            long long *token = nullptr);

}  // namespace nativelock::redis
