// Symfony Lock's RedisStore wire format (5.2+, reference: 5.4's Store/RedisStore.php), so that
// processes on the stock store and processes on nativelock exclude each other:
//   - the lock is a sorted set at the resource's own key; each holder's token is a member scored
//     by its expiry in ms on the server's clock (TIME); the member "__write__" (scored like the
//     writer's token) marks an exclusive holder; the key expires (PEXPIREAT) at the latest score;
//   - every script first refuses a key of type string (Symfony < 5.2's format) and drops the
//     members whose expiry has passed;
//   - save: exclusive, taken if the set is empty, extended if our token holds the write lock,
//     promoted from read if our token is the only reader; save_read: shared, refused only while
//     another token writes; our writer asking to read is demoted; put_off_expiration,
//     remove (Symfony's delete()) and exists as Symfony's.
// TTLs are milliseconds; Symfony's float seconds become (int) ceil(ttl * 1000)
// (ttl_ms_from_seconds).
//
// On top of that, a fair queued wait that wakes on release (AcquireWait):
//   - waiters queue in a sorted set beside the lock, queue_key(key) = key + ":nativelock:queue",
//     ordered by arrival on the server's clock; each keeps a lease on its place in
//     alive_key(key) = key + ":nativelock:alive" (renewed by every poll; a waiter whose lease ran
//     out is dropped by the next script). Symfony never uses these names.
//   - when the lock can go to the queue's head (remove(), force_remove(), a demotion, an expiry or
//     a stock release noticed by a waiter's poll), the script hands it over: it writes the head's
//     token into the set (with "__write__" for a writer) scored by a short claim window, takes it
//     out of the queue and PUBLISHes on the head's wake channel; readers together at the head
//     (up to the first writer) are handed the lock together. The woken waiter's next script
//     claims it with its own TTL. A release with nobody queued costs no PUBLISH; a handed-over
//     waiter that died blocks for one claim window (kClaimWindowMs).
//   - a newcomer's first attempt is the plain save()/save_read() (Symfony's exact semantics, one
//     round trip); stock Symfony clients are never queued: they may take a lock freed by a stock
//     release or an expiry before the queue's head notices (its adaptive 5 → 100 ms poll, and a
//     wake at the earliest expiry in the set), and new readers join readers that hold the lock
//     even while a writer waits (Symfony's own semantics; only queued readers stay behind a
//     queued writer).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/deadline.hpp"
#include "redis/connection.hpp"
#include "redis/lock.hpp"
#include "redis/params.hpp"

namespace nativelock::redis::symfony {

std::string queue_key(std::string_view key);
std::string alive_key(std::string_view key);

// The member that marks a writer.
constexpr std::string_view kWriteMarker = "__write__";
// TTLs outside [1, kMaxTtlMs] throw InvalidArgument (scores must stay exact in Lua's doubles
// printed with 14 digits, and PEXPIREAT must accept them): ~31 years.
constexpr long long kMaxTtlMs = 1000LL * 1000 * 1000 * 1000;
// How long a handed-over lock waits for its new holder to claim it.
constexpr long long kClaimWindowMs = 500;

// Symfony's rounding of a TTL in seconds: (int) ceil(ttl * 1000). Throws InvalidArgument for
// NaN, ttl <= 0 or more than kMaxTtlMs.
long long ttl_ms_from_seconds(double ttl_seconds);

extern const Script kSaveScript;           // KEYS=key ARGV=token,ttl ms → 1/0
extern const Script kSaveReadScript;       // KEYS=key,queue,alive ARGV=token,ttl ms,claim → 1/0
extern const Script kPutOffScript;         // KEYS=key ARGV=token,ttl ms → 1/0
extern const Script kExtendScript;         // as kPutOffScript, never shortening → 1/0
extern const Script kDeleteScript;         // KEYS=key,queue,alive ARGV=token,claim → 1/0
extern const Script kExistsScript;         // KEYS=key ARGV=token → 1/0
extern const Script kRemainingScript;      // KEYS=key ARGV=token → ms left, or -2
extern const Script kWriterScript;         // KEYS=key → the writer's token or nil
extern const Script kForceRemoveScript;    // KEYS=key,queue,alive ARGV=claim → 1/0 (existed)
extern const Script kQueuedAcquireScript;  // see AcquireWait
extern const Script kLeaveQueueScript;     // see AcquireWait::leave_queue

// Exclusive: acquires, extends our write lock, or promotes our read lock when we are its only
// reader. false = conflicted (also for a key of type string).
bool save(Connection &conn, std::string_view key, std::string_view token, long long ttl_ms);
// Shared: acquires or extends a read lock unless another token writes; our write lock is demoted
// (then queued readers the writer held back are handed the lock). false = conflicted.
bool save_read(Connection &conn, std::string_view key, std::string_view token, long long ttl_ms);
// Sets our token's expiry (and the writer marker's, if we write) to ttl_ms from now. false if
// our token does not hold the lock (never had it, released, or expired: unlike 5.4's script,
// an expired token is dropped first instead of revived).
bool put_off_expiration(Connection &conn, std::string_view key, std::string_view token,
                        long long ttl_ms);
// Auto-renewal: like put_off_expiration(), but an expiry later than ttl_ms from now is kept
// (a renewal the server runs late must not cut back a refresh to a longer TTL).
bool extend_at_least(Connection &conn, std::string_view key, std::string_view token,
                     long long ttl_ms);
// Symfony's delete(): removes our token (and the writer marker); true if our token was there.
// Hands the lock to the waiters it frees.
bool remove(Connection &conn, std::string_view key, std::string_view token);
// Whether our token holds the lock (not expired).
bool exists(Connection &conn, std::string_view key, std::string_view token);
// Milliseconds until our token's expiry; nothing if it does not hold the lock.
std::optional<long long> remaining_ms(Connection &conn, std::string_view key,
                                      std::string_view token);
// The token holding the write lock (the member scored like "__write__"), if any.
std::optional<std::string> writer(Connection &conn, std::string_view key);
// Deletes the key whoever holds it (any type); true if it existed. Hands the lock to waiters.
bool force_remove(Connection &conn, std::string_view key);

// Acquires (exclusive, or shared if `shared`), waiting until `deadline`. The first attempt is
// the plain save()/save_read() (one round trip). Then the waiter joins the key's queue and is
// woken on its subscriber when the lock is handed to it; the queue's head also retries on a short
// adaptive poll (5 → 100 ms) and at the earliest expiry in the set, for releasers that do not
// hand over (stock Symfony, expiry); the others renew their place every kQueuedPollMs. A
// final attempt is made at the deadline, after which the waiter has left the queue.
//
// A token that already holds a read lock and waits to write (promotion) is not held back by
// the queue: it gets the write lock as soon as it is the only reader (as with Symfony's save());
// a wait that gives up keeps its read lock.
//
// `interrupted` is asked between attempts, before each poll and whenever a signal interrupts
// one; true returns Interrupted with the waiter still queued. The caller runs what is pending and
// calls wait() again with the SAME deadline (its place is kept), or calls leave_queue().
class AcquireWait {
  public:
    // `subscribers` may be null (a pool of this wait's own). Throws InvalidArgument for a TTL
    // outside [1, kMaxTtlMs].
    AcquireWait(const ConnectionParams &params, std::string key, std::string token,
                long long ttl_ms, bool shared, SubscriberPool *subscribers = nullptr);

    // `conn` is the command connection; it may differ between calls.
    WaitOutcome wait(Connection &conn, const Deadline &deadline,
                     const std::function<bool()> &interrupted, WaitStats *stats = nullptr);

    // Gives up: leaves the queue; a lock handed to us meanwhile is passed on to the next waiters
    // in the same script (a promotion handed to us falls back to our read lock).
    void leave_queue(Connection &conn);

  private:
    std::string key_;
    std::string token_;
    long long ttl_ms_;
    std::string ttl_;
    bool shared_;
    std::string queue_;
    std::string alive_;
    WakeChannel wake_;
    std::string member_;  // "<w|r>|<ttl ms>|<wake channel>|<token>"
    std::string ticket_;  // our place: arrival time on the server's clock (µs)
    bool queued_ = false;
    bool held_ = false;  // our token held a read lock while we waited to write
    bool first_attempt_done_ = false;
};

// One AcquireWait::wait() that leaves the queue unless it acquired.
WaitOutcome acquire_waiting(Connection &conn, const ConnectionParams &params, std::string_view key,
                            std::string_view token, long long ttl_ms, bool shared,
                            const Deadline &deadline, const std::function<bool()> &interrupted,
                            WaitStats *stats = nullptr);

}  // namespace nativelock::redis::symfony
