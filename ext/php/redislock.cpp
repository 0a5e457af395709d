// RedisLock: the PHP face of nativelock::redis (ext/core/redis). This file: the methods that
// work on a constructed lock, lock() with its wait, and the module hooks. Construction lives
// in redislock_construct.cpp, setRedis() parsing in redis_client_params.cpp, the object and
// its registry reference in redislock_object.cpp.
//
// Calls into PHP userland (an overriding key(), Credis/Predis getters, __toString of a name,
// subclass constructors) happen before the core is entered or after it returned, never while
// C++ objects with destructors are alive on the stack.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "redislock_object.h"

extern "C" {
#include "Zend/zend_attributes.h"
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/standard/info.h"
}

#include <hiredis/hiredis.h>

#include <cmath>
#include <optional>
#include <string>

#include "common/process.hpp"
#include "common/random.hpp"
#include "interrupts.h"
#include "redis/lock.hpp"

#include "redislock_arginfo.h"

namespace nativelock::php::redislock {

namespace {

// The original's FAIL_BLOCK: tries at 0, 1, 3, 7 and 15 s.
constexpr double kDefaultBlockBudget = 15.0;
// The original's tries per lock() (FAIL_BLOCK): "after 5 tries".
constexpr int kTries = 5;

// The key: "redislock:" . name natively, or what an overriding key() returns (called here,
// before the core is entered). Returns nullptr with an exception pending on failure.
zend_string *lock_key(zend_object *object, const LockState &state) {
    if (!overridden(object->ce, "key", 3)) return default_key(state);
    zval result;
    ZVAL_UNDEF(&result);
    zend_call_method_with_0_params(object, object->ce, nullptr, "key", &result);
    if (EG(exception)) {
        zval_ptr_dtor(&result);
        return nullptr;
    }
    zend_string *key = zval_try_get_string(&result);
    zval_ptr_dtor(&result);
    return key;
}

// Reconstructed: the constructor ran again (a signal handler during the wait, which gave up its
// place, or key()); the caller starts over with the lock's new name, value and TTL, as the
// original's next try would have.
enum class LockOutcome { Acquired, NotAcquired, Error, Thrown, Bailout, Reconstructed };

// The lock's TTL as sent to the server: at least 1 s (0 and negative values are a ValueError at
// lock()), at most kMaxTtlSeconds.

long long effective_ttl(long long seconds) {
    return seconds > kMaxTtlSeconds ? kMaxTtlSeconds : seconds;
}

// The C++ part of lock(): every C++ object of the wait lives in this frame. Pending PHP
// signal handlers run between waits (inside zend_try, see interrupts.h) and the wait goes on
// with the same deadline. Returns Thrown when a handler threw or exited, Bailout when PHP must
// bail out (the caller does so once this frame is gone), Error with `error` filled.
LockOutcome lock_natively(zend_object *object, std::string_view key, bool wait_for_it,
                          const Deadline &deadline, PendingError &error) noexcept {
    try {
        // A copy: setRedis() called by a signal handler does not move a wait in progress.
        std::shared_ptr<const redis::ConnectionParams> params = redislock_globals().params;
        LockState *state = &state_of(object);
        const unsigned construction = state->constructions;
        std::string value = state->value;
        long long ttl = effective_ttl(state->timeout);
        const bool fencing = NATIVELOCK_G(fencing);
        long long fence = 0;
        bool got;
        // When the key's TTL started, if the wait knows it (a hand-over may have set it before
        // the grant reached us).
        std::optional<nativelock::renew::Instant> held_since;
        if (wait_for_it) {
            // The command connection is not closed as idle while the wait lasts, however long:
            // a signal handler's own locks sweep the pool too. (The wait keeps its subscriber.)
            redis::Pool::Pin command_connection_in_use = redislock_globals().pool.pin(*params);
            redis::AcquireWait wait(*params, std::string(key), value, ttl,
                                    &redislock_globals().subscribers, fencing);
            // A handler may fork: the child must not go on with the parent's value (both would
            // own a key handed to it) nor touch the parent's place in the queue.
            const auto waiter_pid = process::current_tag();
            // A wait that ends with a handler's exception or a fatal error gives up its place
            // in the queue (and passes on a lock handed to it meanwhile); if even that fails,
            // its place lapses with its lease.
            auto give_up = [&] {
                try {
                    wait.leave_queue(redislock_globals().pool.get(*params));
                } catch (...) {
                }
            };
            for (;;) {
                // Fetched again each round: a handler may have used or replaced the pooled
                // connection.
                auto &conn = redislock_globals().pool.get(*params);
                auto outcome = wait.wait(conn, deadline, interrupt_pending);
                if (outcome != redis::WaitOutcome::Interrupted) {
                    got = outcome == redis::WaitOutcome::Acquired;
                    fence = wait.token();
                    if (got) held_since = wait.held_since();
                    break;
                }
                AfterInterrupt after = run_pending_interrupts();
                if (process::current_tag() != waiter_pid) {
                    if (after == AfterInterrupt::KeepWaiting) return LockOutcome::NotAcquired;
                    return after == AfterInterrupt::Exception ? LockOutcome::Thrown
                                                              : LockOutcome::Bailout;
                }
                switch (after) {
                    case AfterInterrupt::KeepWaiting:
                        // A handler that constructed the object anew asked for another lock.
                        if (state_of(object).constructions != construction) {
                            give_up();
                            return LockOutcome::Reconstructed;
                        }
                        continue;
                    case AfterInterrupt::Exception:
                        give_up();
                        return LockOutcome::Thrown;
                    case AfterInterrupt::Bailout:
                        give_up();
                        return LockOutcome::Bailout;
                }
            }
        } else {
            auto &conn = redislock_globals().pool.get(*params);
            if (fencing) {
                fence = redis::try_acquire_fenced(conn, key, value, ttl);
                got = fence > 0;
            } else {
                got = redis::try_acquire(conn, key, value, ttl);
            }
        }
        if (!got) return LockOutcome::NotAcquired;
        // Its TTL counts from when the wait says it was set, else from about now (the lease's
        // margin covers the reply's way back).
        const auto acquired_at = held_since.value_or(nativelock::renew::Instant::now());
        state = &state_of(object);
        state->connection_in_use = redislock_globals().pool.pin(*params);
        state->held = true;
        state->value = std::move(value);
        state->owner = process::current_tag();
        state->key.assign(key.data(), key.size());
        state->params = std::move(params);
        state->fence = fence;
        state->key_ttl = ttl;
        // Taken again while held (lock() on an object that holds the key): the key's TTL was
        // just set anew, and a renewal on the old schedule (a refresh()'s longer TTL) would let
        // it expire under us. The renewal starts again, on this TTL.
        state->lease.reset();
        state->lease_lost = false;
        if (state->auto_renew.value_or(NATIVELOCK_G(auto_renew))) {
            try {
                start_renewal(*state, acquired_at);
            } catch (...) {
                // No thread: the lock is given back rather than held without its renewal.
                try {
                    release_key(*state);
                } catch (...) {
                }
                mark_not_held(*state);
                throw;
            }
        }
        return LockOutcome::Acquired;
    } catch (...) {
        capture_current_exception(error);
        return LockOutcome::Error;
    }
}

}  // namespace

// lock(): acquires per the fail behaviour. Sets return_value like the original (true/false)
// or leaves an exception pending.
// A forked child locking with an object it inherited: a token of its own (and in the `value`
// property, as the constructor sets it), never the parent's.
bool renew_token_after_fork(zend_object *object) {
    PendingError error;
    zend_string *value_str = nullptr;
    try {
        LockState &state = state_of(object);
        state.value = nativelock::random::base64_token(15);
        state.value_tag = nativelock::process::current_tag();
        value_str = zend_string_init(state.value.data(), state.value.size(), 0);
    } catch (...) {
        capture_current_exception(error);
    }
    if (throw_error(error)) return false;
    zval tmp;
    ZVAL_STR(&tmp, value_str);
    write_property(object, kPropValue, &tmp);
    zend_string_release(value_str);
    return true;
}

void do_lock(zend_object *object, bool has_max_wait, double max_wait, zval *return_value) {
    std::optional<Deadline> deadline;  // from the first round: a round started over keeps it
    LockOutcome outcome;
    int key_asked_again = 0;
    do {
        if (!ensure_redis()) return;
        LockState *state = constructed_state(object);
        if (!state) return;
        if (state->timeout < 1) {
            zend_value_error(
                "RedisLock::lock(): the lock's $timeout (TTL) must be at least 1 "
                "second, " ZEND_LONG_FMT " given",
                static_cast<zend_long>(state->timeout));
            return;
        }
        if (state->value_tag != nativelock::process::current_tag() &&
            !renew_token_after_fork(object))
            return;
        const double budget =
            has_max_wait ? max_wait : (state->fail == Fail::Block ? kDefaultBlockBudget : 0.0);
        if (!deadline) deadline = Deadline::after(budget);  // >= 1e9 s or INF: never
        const unsigned construction = state->constructions;
        zend_string *key = lock_key(object, *state);
        if (!key) return;
        state = &state_of(object);  // key() may have run user code
        if (state->constructions != construction) {
            // Constructed anew meanwhile (by a handler, or by key() itself): the key is the
            // old lock's, and key() is asked again. As many times as the original tries (a
            // key() that always does so ends, also without a deadline).
            zend_string_release(key);
            if (++key_asked_again >= kTries) {
                outcome = LockOutcome::NotAcquired;
                break;
            }
            outcome = LockOutcome::Reconstructed;
            continue;
        }
        PendingError error;
        outcome = lock_natively(object, std::string_view(ZSTR_VAL(key), ZSTR_LEN(key)), budget > 0,
                                *deadline, error);
        zend_string_release(key);
        if (outcome == LockOutcome::Error) {
            throw_error(error);
            return;
        }
    } while (outcome == LockOutcome::Reconstructed);
    if (outcome == LockOutcome::Bailout) zend_bailout();
    if (outcome == LockOutcome::Thrown) return;
    if (outcome == LockOutcome::Acquired) {
        track(object);
        set_needs_release(object, true);
        RETURN_TRUE;
    }
    LockState *state = &state_of(object);
    switch (state->fail) {
        case Fail::Except:
            zend_throw_exception_ex(fail_exception_ce, 0, "Could not get lock \"%.*s\"",
                                    static_cast<int>(state->name.size()), state->name.data());
            return;
        case Fail::Return:
            RETURN_FALSE;
        case Fail::Block:
            zend_throw_exception_ex(
                fail_exception_ce, 0, "Could not get lock \"%.*s\" after %d tries.",
                static_cast<int>(state->name.size()), state->name.data(), kTries);
            return;
    }
}

}  // namespace nativelock::php::redislock

using namespace nativelock;
using namespace nativelock::php;
using namespace nativelock::php::redislock;

ZEND_METHOD(RedisLock, setRedis) {
    zval *redis;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(redis)
    ZEND_PARSE_PARAMETERS_END();
    if (!configure_from(redis)) RETURN_THROWS();
    zend_update_static_property(lock_ce, "redis", sizeof("redis") - 1, redis);
}

ZEND_METHOD(RedisLock, ensureRedisIsSet) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!ensure_redis()) RETURN_THROWS();
}

ZEND_METHOD(RedisLock, key) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    RETURN_NEW_STR(default_key(*state));
}

ZEND_METHOD(RedisLock, lock) {
    // lock(?float $maxWait = null): the parameter is accepted but not declared (see stub).
    double max_wait = 0;
    bool max_wait_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_DOUBLE_OR_NULL(max_wait, max_wait_null)
    ZEND_PARSE_PARAMETERS_END();
    if (!max_wait_null && (std::isnan(max_wait) || max_wait < 0)) {
        zend_argument_value_error(1, "($maxWait) must be null or a number of seconds >= 0");
        RETURN_THROWS();
    }
    do_lock(Z_OBJ_P(ZEND_THIS), !max_wait_null, max_wait, return_value);
}

ZEND_METHOD(RedisLock, release) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!ensure_redis()) RETURN_THROWS();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    auto &state = state_of(object);
    if (!state.held) return;
    // Auto-renewal found the key gone or taken: the caller learns it here, after the release
    // (which deletes nothing that is not ours).
    const bool lost = renewal_lost(state) && state.owner == process::current_tag();
    NL_TRY
    release_key(state);
    NL_CATCH_WITH(throw_error)
    bool drop_ref = untrack(state);
    set_needs_release(object, false);
    if (lost) {
        zend_throw_exception_ex(fail_exception_ce, 0,
                                "Lock \"%s\" was lost while held: its auto-renewal found the key "
                                "expired or taken by another holder",
                                state.name.c_str());
    }
    if (drop_ref) OBJ_RELEASE(object);
    if (lost) RETURN_THROWS();
}

ZEND_METHOD(RedisLock, releaseAllCurrentlyHeldLocks) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!ensure_redis()) RETURN_THROWS();
    // Unlink every held RedisLock first (user destructors run by the releases below must not
    // see a half-walked list), then release them one by one.
    uint32_t count = 0;
    for (RegistryEntry *e = registry_first(); e; e = e->next) {
        if (is_lock_entry(e)) ++count;
    }
    if (count == 0) return;
    auto **objects = static_cast<zend_object **>(safe_emalloc(count, sizeof(zend_object *), 0));
    uint32_t n = 0;
    for (RegistryEntry *e = registry_first(); e;) {
        RegistryEntry *next = e->next;
        if (is_lock_entry(e)) {
            registry_remove(e);
            objects[n++] = object_of_entry(e);
        }
        e = next;
    }
    bool failed = false;
    for (uint32_t i = 0; i < n; ++i) {
        zend_object *object = objects[i];
        auto &state = state_of(object);
        if (!failed && overridden(object->ce, "release", 7)) {
            // $lock->release() as the original calls it, so an override runs. The registry's
            // reference is held by this loop meanwhile.
            zval rv;
            ZVAL_UNDEF(&rv);
            zend_call_method_with_0_params(object, object->ce, nullptr, "release", &rv);
            zval_ptr_dtor(&rv);
            if (EG(exception)) failed = true;
        } else if (!failed) {
            PendingError error;
            try {
                release_key(state);
            } catch (...) {
                capture_current_exception(error);
            }
            failed = throw_error(error);
        }
        if (state.held) {
            // Not released (an error above), or taken again by an overriding release(), whose
            // lock() tracked it anew with a reference of its own: keep it tracked for request
            // end, with one reference, not two.
            if (state.entry.linked) {
                OBJ_RELEASE(object);
            } else {
                registry_add(&state.entry);
            }
            continue;
        }
        set_needs_release(object, false);
        OBJ_RELEASE(object);
    }
    efree(objects);
    if (failed) RETURN_THROWS();
}

ZEND_METHOD(RedisLock, refresh) {
    zend_long ttl = 0;
    bool ttl_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    long long seconds = ttl_null ? state->timeout : ttl;
    if (seconds < 1) {
        zend_argument_value_error(1, "must be null or a number of seconds >= 1");
        RETURN_THROWS();
    }
    seconds = effective_ttl(seconds);
    if (!state->held || state->owner != process::current_tag()) RETURN_FALSE;
    if (renewal_lost(*state)) RETURN_FALSE;  // known without a round trip
    bool refreshed = false;
    NL_TRY
    if (!state->lease.active()) {
        refreshed = redis::refresh(redislock_globals().pool.get(*state->params), state->key,
                                   state->value, seconds * 1000);
        if (refreshed) state->key_ttl = seconds;
    } else {
        // Auto-renewed: the renewal is held back while the refresh is on the wire (one sent
        // with the old TTL must not land after it), then goes on at the new TTL; unless the
        // refresh succeeded, as after a refresh of unknown outcome.
        std::unique_ptr<renew::Renewal> shorter;
        if (seconds < state->key_ttl) shorter = make_renewal_for(*state, seconds);
        renew::PausedLease paused(state->lease, std::chrono::seconds(seconds), std::move(shorter),
                                  std::chrono::seconds(std::min(seconds, state->key_ttl)));
        if (!state->lease.lost()) {
            refreshed = redis::refresh(redislock_globals().pool.get(*state->params), state->key,
                                       state->value, seconds * 1000);
        }
        if (refreshed) {
            state->key_ttl = seconds;
            std::unique_ptr<renew::Renewal> renewal = make_renewal_for(*state, seconds);
            if (renewal) {
                paused.resume(std::move(renewal));
            } else {
                paused.dismiss();
                stop_renewal(*state);  // no expiry now: nothing to renew
            }
        }
    }
    NL_CATCH_WITH(throw_error)
    RETURN_BOOL(refreshed);
}

ZEND_METHOD(RedisLock, getRemainingLifetime) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (!state->held || state->owner != process::current_tag() || renewal_lost(*state))
        RETURN_NULL();
    NL_TRY
    auto &conn = redislock_globals().pool.get(*state->params);
    auto ms = redis::remaining_ms(conn, state->key, state->value);
    if (!ms) RETURN_NULL();
    if (*ms < 0) RETURN_DOUBLE(INFINITY);
    RETURN_DOUBLE(static_cast<double>(*ms) / 1000.0);
    NL_CATCH_WITH(throw_error)
}

ZEND_METHOD(RedisLock, isAcquired) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (!state->held || state->owner != process::current_tag()) RETURN_FALSE;
    if (renewal_lost(*state)) RETURN_FALSE;  // known without a round trip
    NL_TRY
    auto &conn = redislock_globals().pool.get(*state->params);
    RETURN_BOOL(redis::is_held(conn, state->key, state->value));
    NL_CATCH_WITH(throw_error)
}

ZEND_METHOD(RedisLock, setAutoRenew) {
    bool enabled = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_BOOL(enabled)
    ZEND_PARSE_PARAMETERS_END();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    state->auto_renew = enabled;
    if (!enabled) {
        stop_renewal(*state);
    } else if (state->held && state->owner == process::current_tag() && !state->lease.active() &&
               !renewal_lost(*state) && renewable_ttl(state->key_ttl)) {
        // Held for a while already: the key is given its TTL again now (which also says
        // whether it is still ours), so the lease starts from a known expiry.
        NL_TRY
        const auto sent = nativelock::renew::Instant::now();
        if (redis::refresh(redislock_globals().pool.get(*state->params), state->key, state->value,
                           state->key_ttl * 1000)) {
            start_renewal(*state, sent);
        } else {
            state->lease_lost = true;  // expired or taken: release() says so
        }
        NL_CATCH_WITH(throw_error)
    }
    RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(RedisLock, isAutoRenewed) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    RETURN_BOOL(state->held && state->owner == process::current_tag() && state->lease.active() &&
                !renewal_lost(*state));
}

ZEND_METHOD(RedisLock, getFencingToken) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (!state->held || state->owner != process::current_tag()) {
        zend_throw_exception_ex(fail_exception_ce, 0, "Lock \"%s\" is not held: no fencing token",
                                state->name.c_str());
        RETURN_THROWS();
    }
    if (state->fence <= 0) {
        zend_throw_exception_ex(fail_exception_ce, 0,
                                "Lock \"%s\" was acquired without a fencing token "
                                "(nativelock.fencing was off)",
                                state->name.c_str());
        RETURN_THROWS();
    }
    RETURN_LONG(static_cast<zend_long>(state->fence));
}

// ---- module hooks ------------------------------------------------------------------------

void nativelock_redislock_minit(int) {
    fail_exception_ce = register_class_RedisLockFailException(zend_ce_exception);
    connection_exception_ce = register_class_RedisLockConnectionException(fail_exception_ce);
    lock_ce = register_class_RedisLock();
    lock_ce->create_object = create_object;
    // setRedis(#[\SensitiveParameter] $redis): traces show Object(SensitiveParameterValue)
    // instead of a URI with its password.
    zend_add_parameter_attribute(static_cast<zend_function *>(zend_hash_str_find_ptr(
                                     &lock_ce->function_table, "setredis", sizeof("setredis") - 1)),
                                 0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
    init_handlers();
    init_properties();
}

void nativelock_redislock_rshutdown() {
    // Held locks were released by the registry drain just before; only the request's
    // configuration is forgotten. Pooled connections stay for the next request, unless they
    // stood unused for nativelock.pool_idle_timeout (all of them with 0).
    if (NATIVELOCK_G(redislock)) {
        forget_source(true);  // before the object store is freed
        nativelock_redislock_forget_settings();
        RedisLockGlobals &globals = redislock_globals();
        globals.pool.close_idle();
        globals.subscribers.close_idle();
    }
}

void nativelock_redislock_forget_settings() {
    if (!NATIVELOCK_G(redislock)) return;
    RedisLockGlobals &globals = redislock_globals();
    globals.params.reset();
    // Late code's setRedis() (post-deactivate): its object went with the object store.
    forget_source(false);
    globals.failed_at_shutdown.clear();
}

void nativelock_redislock_minfo() {
    // Without allocating: phpinfo() does not open the pool.
    RedisLockGlobals *globals = NATIVELOCK_G(redislock);
    char hiredis[64];
    snprintf(hiredis, sizeof hiredis, "hiredis %d.%d.%d (no TLS)", HIREDIS_MAJOR, HIREDIS_MINOR,
             HIREDIS_PATCH);
    php_info_print_table_start();
    php_info_print_table_header(2, "RedisLock", "enabled");
    php_info_print_table_row(2, "RedisLock client", hiredis);
    php_info_print_table_row(2, "RedisLock protocol",
                             "SET NX EX; waiters queue FIFO, a release hands the lock to the "
                             "oldest live waiter and wakes only it");
    print_pool_row("RedisLock pooled connections", globals ? globals->pool.size() : 0,
                   globals ? globals->pool.opened() : 0, globals ? globals->pool.closed_idle() : 0);
    print_pool_row("RedisLock wake-up (subscriber) connections",
                   globals ? globals->subscribers.size() : 0,
                   globals ? globals->subscribers.opened() : 0,
                   globals ? globals->subscribers.closed_idle() : 0);
    php_info_print_table_end();
}
