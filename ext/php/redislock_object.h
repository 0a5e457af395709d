// RedisLock's native state, shared by its files: the object (NativeObject<LockState>), the
// worker's connection pool and this request's setRedis() parameters (module globals), the
// registry reference a held lock keeps, and the declared properties.
//
//   redislock.cpp            methods, lock(), module hooks
//   redislock_construct.cpp  the gist's construction: __construct, create, createAndLock
//   redislock_object.cpp     this header: lifecycle, registry, properties, errors
//   redis_client_params.cpp  setRedis(): client objects and URIs → ConnectionParams
#pragma once

#include "php_nativelock.h"

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include "exceptions.h"
#include "native_object.h"
#include "common/renewer.hpp"
#include "redis/params.hpp"
#include "redis/lock.hpp"
#include "redis/pool.hpp"
#include "request_registry.h"

namespace nativelock::php {

// NATIVELOCK_G(redislock): allocated on first use (never in MINIT), freed in GSHUTDOWN. Every
// access through redislock_globals() gives the pools the current nativelock.pool_idle_timeout
// (ini_set() may change it at any time).
struct RedisLockGlobals {
    // Connections kept across the requests of this worker.
    redis::Pool pool;
    // Connections blocked waiters are woken on: one per server, kept across waits.
    redis::SubscriberPool subscribers;
    // What setRedis() gave in this request (forgotten at request end).
    std::shared_ptr<const redis::ConnectionParams> params;
    // What `params` were parsed from, so that a later assignment to RedisLock::$redis (the
    // gist's own setRedis() is just that) is noticed and parsed anew: the client object, kept
    // referenced so that no other object can take its place and address, or the URI.
    zend_object *source_object = nullptr;
    std::string source_uri;
    // Request-end release: an endpoint that already failed to connect is not retried for
    // every other held lock.
    std::string failed_at_shutdown;
};
RedisLockGlobals &redislock_globals();

namespace redislock {

extern zend_class_entry *lock_ce;
extern zend_class_entry *fail_exception_ce;
extern zend_class_entry *connection_exception_ce;

enum class Fail { Except, Return, Block };

// The longest TTL sent to the server (SPEC §2 numbers): larger values are clamped (servers
// before Redis 7 wrap EX overflows into an expired key). ~31.7 years: no expiry in practice.
constexpr long long kMaxTtlSeconds = 1000000000LL;

struct LockState {
    std::string name;
    std::string value;
    // The process that drew `value`: a forked child that locks with an inherited object draws
    // its own, or parent and child would both pass the server's "still ours" checks.
    nativelock::process::Tag value_tag;
    long long timeout = 0;
    Fail fail = Fail::Except;
    // Runs of the constructor (0: not constructed): lock() notices that a signal handler or
    // key() ran it again.
    unsigned constructions = 0;
    // While held: where and under which key, and by which process.
    bool held = false;
    nativelock::process::Tag owner;
    std::string key;
    std::shared_ptr<const redis::ConnectionParams> params;
    // The acquisition's fencing token (nativelock.fencing on), 0 if it was taken without one.
    long long fence = 0;
    // setAutoRenew(): this lock's choice; nothing follows nativelock.auto_renew at lock().
    std::optional<bool> auto_renew;
    // While held: the TTL the key was last given (seconds): at lock(), by refresh().
    long long key_ttl = 0;
    // While held and auto-renewed: the renewer thread's lease on the key (lost() once a
    // renewal found it gone or taken).
    renew::Lease lease;
    // Its renewal found the lock lost before it was stopped (setAutoRenew(false)): still lost.
    bool lease_lost = false;
    // While held: the pooled connection the lock is refreshed and released on is not closed
    // for being idle.
    redis::Pool::Pin connection_in_use;
    // Linked (and holding a reference to the object) while held, so that a lock nobody
    // stores stays held until release(), releaseAllCurrentlyHeldLocks() or request end, like
    // the original; locks that are not held are not retained.
    RegistryEntry entry;
};
using LockObject = NativeObject<LockState>;

inline LockState &state_of(zend_object *object) {
    return LockObject::state_of(object);
}

// The lock is no longer held by this object (released, given up, or its parent's after fork).
inline void mark_not_held(LockState &state) noexcept {
    state.held = false;
    state.lease.reset();
    state.lease_lost = false;
    state.connection_in_use.reset();
}

// create_object and the handlers (set up in MINIT).
zend_object *create_object(zend_class_entry *ce);
void init_handlers();

// Whether a registry entry belongs to a RedisLock, and its object.
bool is_lock_entry(const RegistryEntry *entry);
zend_object *object_of_entry(RegistryEntry *entry);

// Deletes the key on the server if this process holds it (a lock taken before fork() is only
// forgotten). Throws if the server cannot be asked; the lock then stays held.
void release_key(LockState &state);
// Whether auto-renewal found this lock lost (expired or taken): known without a round trip.
inline bool renewal_lost(const LockState &state) {
    return state.lease_lost || state.lease.lost();
}

// Stops the auto-renewal (after a renewal in flight has landed), keeping what it found.
inline void stop_renewal(LockState &state) noexcept {
    if (state.lease.lost()) state.lease_lost = true;
    state.lease.reset();
}

// What the renewer sends to keep the key alive at `ttl_seconds`; null for a lock this process
// does not hold or a TTL without expiry worth renewing.
std::unique_ptr<renew::Renewal> make_renewal_for(const LockState &state, long long ttl_seconds);
// Whether a key TTL is one auto-renewal keeps alive (not "no expiry").
inline bool renewable_ttl(long long ttl_seconds) {
    return ttl_seconds >= 1 && ttl_seconds < kMaxTtlSeconds;
}
// Starts the renewer's lease on a lock this process holds, whose key was given key_ttl at
// `since` (the acquisition's reply, a refresh's send); no-op for a lock without expiry. Throws
// if the thread cannot be started.
void start_renewal(LockState &state, nativelock::renew::Instant since);
// Links a freshly acquired lock into the registry, with a reference to its object.
void track(zend_object *object);
// Unlinks; returns whether the registry's reference must now be dropped by the caller.
bool untrack(LockState &state);

// The state of a constructed lock, or nullptr with an Error thrown (constructor not called).
LockState *constructed_state(zend_object *object);
// Whether `ce` (a RedisLock subclass) overrides the method `lcname`.
bool overridden(zend_class_entry *ce, const char *lcname, size_t len);
// "redislock:" . name, the original's key().
zend_string *default_key(const LockState &state);

// Declared properties, written directly on plain RedisLock objects (subclasses may redeclare
// them with types and go through the property API).
enum PropertySlot { kPropName, kPropValue, kPropFailBehavior, kPropTimeout, kPropNeedsRelease };
void write_property(zend_object *object, PropertySlot slot, zval *value);
void set_needs_release(zend_object *object, bool value);
void init_properties();

// The PHP exception for a core error: RedisLockConnectionException for connection errors,
// RedisLockFailException otherwise (ValueError/Error as everywhere, see exceptions.h).
bool throw_error(const PendingError &error) noexcept;

// setRedis() and ensureRedisIsSet() (redis_client_params.cpp). Return false with a PHP
// exception pending.
bool configure_from(zval *redis);
// A client object or URI as connection parameters (also for Nativelock\RedisBackend);
// nullptr with a PHP exception pending on failure. `what` names the argument in a TypeError.
std::shared_ptr<const redis::ConnectionParams> params_from_zval(zval *redis, const char *what);
bool ensure_redis();
// Forgets what the request's parameters were parsed from; `release_object`: drops the
// reference to the client object (false once the object store was freed).
void forget_source(bool release_object);

// lock() natively (redislock.cpp), for createAndLock(): sets return_value or throws.
void do_lock(zend_object *object, bool has_max_wait, double max_wait, zval *return_value);

}  // namespace redislock
}  // namespace nativelock::php
