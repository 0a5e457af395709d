// ItsMieger\MySqlSharedLocks\SharedLock (static) and SharedLockHandle: the methods, their
// argument checks and error mapping, and MINIT. The state they work on is in
// sharedlock_session.cpp, held locks in sharedlock_held.cpp (see sharedlock_shim.h).
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharedlock_shim.h"

extern "C" {
#include "Zend/zend_attributes.h"
#include "Zend/zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
}

#include <cmath>
#include <exception>
#include <string>

#include "common/process.hpp"
#include "interrupts.h"
#include "sharedlock_arginfo.h"

namespace nativelock::php::sharedlock {

zend_class_entry *ce_shared_lock;
zend_class_entry *ce_handle;
zend_class_entry *ce_exception;
zend_class_entry *ce_acquire;
zend_class_entry *ce_timeout;
zend_class_entry *ce_release;
zend_class_entry *ce_remaining_ttl;
zend_class_entry *ce_table_repair;

}  // namespace nativelock::php::sharedlock

using namespace nativelock::php::sharedlock;
namespace core = nativelock::mysql;

namespace {

// A lock taken but not to be kept goes back, then the failure goes on. Outside the catch
// handler that caught it: on the PDO driver the release is a PHP call.
[[noreturn]] void give_back_then_rethrow(core::Protocol &protocol, const std::string &name,
                                         std::exception_ptr failure) {
    try {
        protocol.unlock(name);
    } catch (const PhpBailout &) {
        throw;
    } catch (...) {
    }
    std::rethrow_exception(failure);
}

bool valid_number(zval *z, double &out) {
    if (Z_TYPE_P(z) == IS_LONG) {
        out = static_cast<double>(Z_LVAL_P(z));
        return true;
    }
    if (Z_TYPE_P(z) == IS_DOUBLE) {
        out = Z_DVAL_P(z);
        return true;
    }
    if (Z_TYPE_P(z) == IS_STRING &&
        is_numeric_string(Z_STRVAL_P(z), Z_STRLEN_P(z), nullptr, &out, false)) {
        zend_long l;
        zend_uchar t = is_numeric_string(Z_STRVAL_P(z), Z_STRLEN_P(z), &l, &out, false);
        if (t == IS_LONG) out = static_cast<double>(l);
        return true;
    }
    if (Z_TYPE_P(z) == IS_NULL || Z_TYPE_P(z) == IS_FALSE || Z_TYPE_P(z) == IS_TRUE) {
        out = Z_TYPE_P(z) == IS_TRUE ? 1 : 0;
        return true;
    }
    return false;
}

// A timeout or TTL argument: a number (or numeric string, null, bool, as the package's untyped
// parameters took them); NaN and negative values are a ValueError.
bool seconds_argument(uint32_t arg, zval *value, double &out) {
    if (!valid_number(value, out)) {
        zend_argument_type_error(arg, "must be a number of seconds, %s given",
                                 zend_zval_type_name(value));
        return false;
    }
    if (std::isnan(out) || out < 0) {
        zend_argument_value_error(arg, "must be a number of seconds >= 0");
        return false;
    }
    return true;
}

}  // namespace

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, configureConnection) {
    zval *host, *db, *user, *password, *charset = nullptr, *port = nullptr, *dsn = nullptr;
    ZEND_PARSE_PARAMETERS_START(4, 7)
    Z_PARAM_ZVAL(host)
    Z_PARAM_ZVAL(db)
    Z_PARAM_ZVAL(user)
    Z_PARAM_ZVAL(password)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(charset)
    Z_PARAM_ZVAL(port)
    Z_PARAM_ZVAL(dsn)
    ZEND_PARSE_PARAMETERS_END();
    NL_TRY
    release_before_switch();
    RequestState &s = st();
    s.clear_config();
    ZVAL_COPY(&s.config_host, host);
    ZVAL_COPY(&s.config_db, db);
    ZVAL_COPY(&s.config_user, user);
    ZVAL_COPY(&s.config_password, password);
    if (charset)
        ZVAL_COPY(&s.config_charset, charset);
    else
        ZVAL_STRING(&s.config_charset, "utf8mb4");
    if (port)
        ZVAL_COPY(&s.config_port, port);
    else
        ZVAL_NULL(&s.config_port);
    if (dsn)
        ZVAL_COPY(&s.config_dsn, dsn);
    else
        ZVAL_NULL(&s.config_dsn);
    core::ConnectParams p;
    p.host = str_of(host);
    p.database = str_of(db);
    p.user = str_of(user);
    p.password = str_of(password);
    p.charset = str_of(&s.config_charset);
    p.port =
        zend_is_true(&s.config_port) ? static_cast<unsigned>(zval_get_long(&s.config_port)) : 0;
    // The pdo driver hands $additionalDsn to PDO as it is; the native one takes what it can
    // honour and rejects the rest (InvalidArgument: a ValueError naming the key).
    if (zend_is_true(&s.config_dsn) && !driver_is_pdo())
        p.apply_additional_dsn(str_of(&s.config_dsn));
    p.connect_timeout = NATIVELOCK_G(mysql_connect_timeout);
    p.read_timeout = NATIVELOCK_G(mysql_read_timeout);
    s.params = p;
    s.configured = true;
    s.pdo_mode = driver_is_pdo();
    NL_CATCH_WITH(throw_sharedlock_error, Op::Other, nullptr, nullptr)
    if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, setConnection) {
    zval *pdo;
    zend_class_entry *pce = pdo_class();
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_OBJECT_OF_CLASS(pdo, pce)
    ZEND_PARSE_PARAMETERS_END();
    NL_TRY
    RequestState &s = st();
    if (Z_TYPE(s.pdo) == IS_OBJECT && Z_OBJ(s.pdo) == Z_OBJ_P(pdo) && s.pdo_mode) return;
    release_before_switch();
    ZVAL_COPY(&s.pdo, pdo);
    s.pdo_owner = nativelock::process::current_tag();
    s.pdo_opened_here = false;
    s.pdo_mode = true;
    NL_CATCH_WITH(throw_sharedlock_error, Op::Other, nullptr, nullptr)
    if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, setQuoteStyle) {
    (void)return_value;
    zval *style;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(style)
    ZEND_PARSE_PARAMETERS_END();
    // switch() in the package compares loosely with 0 and 1.
    zval zero, one;
    ZVAL_LONG(&zero, 0);
    ZVAL_LONG(&one, 1);
    if (zend_compare(style, &zero) == 0) {
        st().quote_style = 0;
    } else if (zend_compare(style, &one) == 0) {
        st().quote_style = 1;
    } else {
        zend_string *text = zval_get_string(style);
        zend_throw_exception_ex(spl_ce_InvalidArgumentException, 0, "Invalid quote style \"%s\"",
                                ZSTR_VAL(text));
        zend_string_release(text);
    }
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, getConnection) {
    ZEND_PARSE_PARAMETERS_NONE();
    NL_TRY
    RequestState &s = st();
    drop_inherited_pdo_of_ours();
    zval *target = (s.pdo_mode || !s.configured) ? &s.pdo : &s.side_pdo;
    if (Z_TYPE_P(target) == IS_UNDEF) {
        open_pdo(target);
        if (target == &s.pdo) {
            s.pdo_owner = nativelock::process::current_tag();
            s.pdo_opened_here = true;
        } else {
            s.side_pdo_owner = nativelock::process::current_tag();
        }
    }
    RETVAL_COPY(target);
    NL_CATCH_WITH(throw_sharedlock_error, Op::Other, nullptr, nullptr)
    if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, getTable) {
    ZEND_PARSE_PARAMETERS_NONE();
    RETURN_STRING("shared_locks");
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, lock) {
    zval *name, *timeout, *ttl;
    ZEND_PARSE_PARAMETERS_START(3, 3)
    Z_PARAM_ZVAL(name)
    Z_PARAM_ZVAL(timeout)
    Z_PARAM_ZVAL(ttl)
    ZEND_PARSE_PARAMETERS_END();
    double timeout_s = 0, ttl_s = 0;
    if (Z_TYPE_P(name) == IS_ARRAY || Z_TYPE_P(name) == IS_OBJECT) {
        zend_argument_type_error(1, "must be a string, %s given", zend_zval_type_name(name));
        RETURN_THROWS();
    }
    if (!seconds_argument(2, timeout, timeout_s) || !seconds_argument(3, ttl, ttl_s)) {
        RETURN_THROWS();
    }
    std::string lock_name = str_of(name);
    // INF and >= 1e9 s: no limit (Deadline::never()); the TTL is clamped to kMaxTtlSeconds.
    const auto deadline = nativelock::Deadline::after(timeout_s);
    const long long ttl_whole = core::ttl_seconds(ttl_s);
    // Signals do not end the wait (SPEC §2): the protocol waits server-side in bounded slices
    // and stops between them when a handler is due; the handlers run here, outside every C++
    // scope of the wait, and the wait goes on with the same deadline.
    // On the PDO driver the handlers run inside PDO's own calls; what they throw is deferred
    // (has_deferred_throwable) and ends the wait as well.
    auto stop_waiting = [] {
        return nativelock::php::interrupt_pending() || has_deferred_throwable();
    };
    std::uint64_t acquisition = 0;
    // What the wait has seen, kept across the handlers' runs (core::WaitMemory), as long as it
    // goes on through the same session (a handler may switch the connection).
    core::WaitMemory wait_memory;
    const core::Session *seen_through = nullptr;
    std::uint64_t seen_generation = 0;
    for (;;) {
        // User code that PHP runs after the request's locks were released (a session save
        // handler's write() or close(), a stream wrapper closed at shutdown): a lock on the native
        // driver is released at the very end of the request, but one through a PDO could not be
        // (the PDO is freed first; a persistent one would keep it). Asked every round: a handler
        // may have switched to a PDO.
        if (NATIVELOCK_G(request_released) && (st().pdo_mode || !st().configured)) {
            throw_lock_exception(ce_acquire, name, nullptr,
                                 "no lock through a PDO after request end released the request's "
                                 "locks (nothing could release it); the native driver can",
                                 nullptr);
            RETURN_THROWS();
        }
        bool interrupted = false;
        {
            NL_TRY
            core::Session &waiting_on = session();
            if (&waiting_on != seen_through || waiting_on.generation() != seen_generation) {
                wait_memory = {};
                seen_through = &waiting_on;
                seen_generation = waiting_on.generation();
            }
            core::Protocol protocol(waiting_on, quote_style());
            try {
                // The row's `created` is written by this call, after this.
                const auto started = nativelock::renew::Instant::now();
                protocol.lock(lock_name, deadline, ttl_whole, stop_waiting, &wait_memory);
                const auto granted = nativelock::renew::Instant::now();
                long long fence = 0;
                if (NATIVELOCK_G(fencing)) {
                    // Drawn while GET_LOCK is held, on the session that holds it. A lock whose
                    // token cannot be drawn is given back: no acquisition without its token.
                    std::exception_ptr failure;
                    try {
                        fence = protocol.draw_fence(lock_name);
                    } catch (const PhpBailout &) {
                        throw;
                    } catch (...) {
                        failure = std::current_exception();
                    }
                    if (failure) give_back_then_rethrow(protocol, lock_name, failure);
                }
                acquisition = track(lock_name, fence, ttl_whole);
                if (NATIVELOCK_G(auto_renew)) {
                    std::exception_ptr failure;
                    try {
                        // The row's `created` was written by this call, but possibly long
                        // before GET_LOCK was granted (a wait behind its holder). A quick
                        // acquisition counts from its start (a little early: safe); after a
                        // wait the TTL is set anew, so the lease counts from a known time.
                        // (Renewed on the native driver only: nothing to do on a PDO.)
                        const bool renewed = !st().held_via_pdo && st().held_native &&
                                             ttl_whole >= 1 && ttl_whole < core::kMaxTtlSeconds;
                        const bool quick = nativelock::renew::granted_promptly(
                            started, granted, std::chrono::seconds(ttl_whole));
                        const auto since = quick ? started : nativelock::renew::Instant::now();
                        const bool still_held =
                            !renewed || quick || protocol.extend(lock_name, ttl_whole);
                        if (!still_held) {
                            // Taken over (our session ended) between the grant and now: the
                            // lock goes back (below) and the caller learns it was not had.
                            throw core::AcquireFailed(
                                "Lock was taken over by another session as "
                                "soon as it was granted");
                        }
                        start_renewal(*held_lock(lock_name, acquisition), since);
                    } catch (const PhpBailout &) {
                        throw;
                    } catch (...) {
                        failure = std::current_exception();
                    }
                    if (failure) {
                        // No renewer thread: the lock is given back, not held unrenewed.
                        untrack(lock_name, acquisition);
                        give_back_then_rethrow(protocol, lock_name, failure);
                    }
                }
                // A handler threw after the lock was taken: the caller never gets the handle,
                // so the lock goes back, as if the wait had ended just before.
                if (has_deferred_throwable()) {
                    untrack(lock_name, acquisition);
                    try {
                        protocol.unlock(lock_name);
                    } catch (const PhpBailout &) {
                        throw;
                    } catch (...) {
                    }
                }
            } catch (const core::WaitInterrupted &) {
                interrupted = true;
            }
            drop_previous();
            NL_CATCH_WITH(throw_sharedlock_error, Op::Lock, name, timeout)
            if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
        }
        if (!interrupted) break;
        NL_RUN_PENDING_INTERRUPTS_OR_RETURN()
    }
    object_init_ex(return_value, ce_handle);
    set_handle_acquisition(Z_OBJ_P(return_value), acquisition);
    zend_update_property(ce_handle, Z_OBJ_P(return_value), "lockName", sizeof("lockName") - 1,
                         name);
}

namespace {

// `acquisition`: the SharedLockHandle's (handle_acquisition()), 0 for the static calls.
void do_unlock(INTERNAL_FUNCTION_PARAMETERS, zval *name, std::uint64_t acquisition = 0) {
    (void)execute_data;
    std::string lock_name = str_of(name);
    bool released = false;
    HeldLock *held = held_lock(lock_name, acquisition);
    const bool renewal_lost = held && held->renewal_lost();
    // A handle from lock() whose acquisition is no longer listed (released, or released by
    // request state being reset) holds nothing: a later lock of the name is not its to free.
    const bool stale_handle = acquisition != 0 && !held;
    NL_TRY
    core::Protocol protocol(session(), quote_style());
    bool lost = stale_handle || held_by_an_earlier_session(lock_name, acquisition);
    if (!stale_handle) untrack(lock_name, acquisition);
    if (!lost) released = protocol.unlock(lock_name);
    drop_previous();
    NL_CATCH_WITH(throw_sharedlock_error, Op::Unlock, name, nullptr)
    if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
    if (renewal_lost) {
        throw_lock_exception(ce_release, name, nullptr,
                             "Lock was lost while held: its auto-renewal found it expired or "
                             "taken by another session",
                             nullptr);
    } else if (!released) {
        throw_lock_exception(ce_release, name, nullptr, "", nullptr);
    }
}

void do_assert_ttl(INTERNAL_FUNCTION_PARAMETERS, zval *name, zval *min_ttl,
                   std::uint64_t acquisition = 0) {
    (void)execute_data;
    std::string lock_name = str_of(name);
    double min = 1;
    zval default_ttl;
    ZVAL_LONG(&default_ttl, 1);
    if (!min_ttl) min_ttl = &default_ttl;
    if (!valid_number(min_ttl, min)) {
        zend_argument_type_error(2, "must be a number of seconds, %s given",
                                 zend_zval_type_name(min_ttl));
        RETURN_THROWS();
    }
    if (std::isnan(min)) {
        zend_argument_value_error(2, "must be a number of seconds, not NAN");
        RETURN_THROWS();
    }
    bool ok = false;
    HeldLock *held = held_lock(lock_name, acquisition);
    if ((held && held->renewal_lost()) || (acquisition != 0 && !held)) {
        // Auto-renewal found it expired or taken, or the handle's acquisition is no longer held:
        // known without a round trip.
        throw_lock_exception(ce_remaining_ttl, name, min_ttl, "", nullptr);
        RETURN_THROWS();
    }
    NL_TRY
    // Lost with the session it was taken on: the row the server would find may be a later
    // acquisition's of the same name, on the session that replaced it.
    core::Session &now = session();  // may replace a session that was lost
    if (!held_by_an_earlier_session(lock_name, acquisition)) {
        core::Protocol protocol(now, quote_style());
        ok = protocol.has_remaining_ttl(lock_name, core::ttl_seconds(min));
        drop_previous();
    }
    NL_CATCH_WITH(throw_sharedlock_error, Op::AssertTTL, name, min_ttl)
    if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
    if (!ok) throw_lock_exception(ce_remaining_ttl, name, min_ttl, "", nullptr);
}

}  // namespace

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, unlock) {
    zval *name;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(name)
    ZEND_PARSE_PARAMETERS_END();
    do_unlock(INTERNAL_FUNCTION_PARAM_PASSTHRU, name);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, assertTTL) {
    zval *name, *min_ttl = nullptr;
    ZEND_PARSE_PARAMETERS_START(1, 2)
    Z_PARAM_ZVAL(name)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(min_ttl)
    ZEND_PARSE_PARAMETERS_END();
    do_assert_ttl(INTERNAL_FUNCTION_PARAM_PASSTHRU, name, min_ttl);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, tryRepairTable) {
    ZEND_PARSE_PARAMETERS_NONE();
    NL_TRY
    core::Protocol protocol(session(), quote_style());
    protocol.repair_table();
    drop_previous();
    NL_CATCH_WITH(throw_sharedlock_error, Op::Repair, nullptr, nullptr)
    if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, releaseAllHeldLocks) {
    ZEND_PARSE_PARAMETERS_NONE();
    int released = 0;
    NL_TRY
    if (request_state_if_any()) released = release_all_held();
    NL_CATCH_WITH(throw_sharedlock_error, Op::Other, nullptr, nullptr)
    if (rethrow_deferred_throwable() || EG(exception)) RETURN_THROWS();
    RETURN_LONG(released);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, __construct) {
    (void)return_value;
    zval *name;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(name)
    ZEND_PARSE_PARAMETERS_END();
    zend_update_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName", sizeof("lockName") - 1, name);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, release) {
    ZEND_PARSE_PARAMETERS_NONE();
    zval rv;
    zval *name = zend_read_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName",
                                    sizeof("lockName") - 1, 1, &rv);
    zval copy;
    ZVAL_COPY_DEREF(&copy, name);
    do_unlock(INTERNAL_FUNCTION_PARAM_PASSTHRU, &copy, handle_acquisition(Z_OBJ_P(ZEND_THIS)));
    zval_ptr_dtor(&copy);
    if (EG(exception)) RETURN_THROWS();
    RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, getFencingToken) {
    ZEND_PARSE_PARAMETERS_NONE();
    zval rv;
    zval *name = zend_read_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName",
                                    sizeof("lockName") - 1, 1, &rv);
    zval copy;
    ZVAL_COPY_DEREF(&copy, name);
    long long fence = -1;
    if (Z_TYPE(copy) == IS_STRING) {
        NL_TRY
        fence = held_fence(std::string(Z_STRVAL(copy), Z_STRLEN(copy)),
                           handle_acquisition(Z_OBJ_P(ZEND_THIS)));
        NL_CATCH_WITH(throw_sharedlock_error, Op::Other, &copy, nullptr)
    }
    if (fence <= 0) {
        throw_lock_exception(ce_exception, &copy, nullptr,
                             fence < 0 ? "Lock is not held: no fencing token"
                                       : "Lock was acquired without a fencing token "
                                         "(nativelock.fencing was off)",
                             nullptr);
        zval_ptr_dtor(&copy);
        RETURN_THROWS();
    }
    zval_ptr_dtor(&copy);
    RETURN_LONG(static_cast<zend_long>(fence));
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, setAutoRenew) {
    bool enabled = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_BOOL(enabled)
    ZEND_PARSE_PARAMETERS_END();
    zval rv;
    // No PHP code runs below: the property's value stays as read.
    zval *name = zend_read_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName",
                                    sizeof("lockName") - 1, 1, &rv);
    ZVAL_DEREF(name);
    const std::uint64_t acquisition = handle_acquisition(Z_OBJ_P(ZEND_THIS));
    HeldLock *held = Z_TYPE_P(name) == IS_STRING
                         ? held_lock(std::string(Z_STRVAL_P(name), Z_STRLEN_P(name)), acquisition)
                         : nullptr;
    if (!enabled) {
        if (held) held->stop_renewal();
        RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
    }
    const char *refusal = !held ? "Lock is not held: nothing to renew"
                          : st().held_via_pdo
                              ? "Auto-renewal needs the native driver "
                                "(nativelock.sharedlock_driver=native and configureConnection())"
                          // The table keeps whole seconds: a TTL under half a second is 0, a
                          // lock that is expired as it is taken; there is nothing to keep alive.
                          : held->ttl < 1 ? "Auto-renewal needs a TTL of at least 1 second (the "
                                            "table keeps whole seconds; this lock's rounds to 0 "
                                            "or less)"
                                          : nullptr;
    if (refusal) {
        throw_lock_exception(ce_exception, name, nullptr, refusal, nullptr);
        RETURN_THROWS();
    }
    if (held->lease.active() || held->renewal_lost()) RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
    bool lost_with_session = false;
    NL_TRY
    // Held for a while already: its row is given its TTL again now (which also says whether
    // it is still ours), so the lease starts from a known expiry.
    const std::string lock_name = held->name;
    const long long ttl = held->ttl;
    const bool renewable = ttl >= 1 && ttl < core::kMaxTtlSeconds;
    bool still_held = true;
    const auto sent = nativelock::renew::Instant::now();
    // The session first: it may replace one that was lost, which the check below then sees.
    core::Session *now = renewable ? &session() : nullptr;
    if (held_by_an_earlier_session(lock_name, acquisition)) {
        // The row of the name on this session is a later acquisition's, not to be extended.
        lost_with_session = true;
    } else if (renewable) {
        core::Protocol protocol(*now, quote_style());
        still_held = protocol.extend(lock_name, ttl);
        drop_previous();
    }
    if (!lost_with_session) {
        held = held_lock(lock_name, acquisition);  // again: user code may have run meanwhile
        if (held && still_held) {
            start_renewal(*held, sent);
        } else if (held) {
            held->lease_lost = true;  // expired or taken: unlock() says so
        }
    }
    NL_CATCH_WITH(throw_sharedlock_error, Op::Other, name, nullptr)
    if (lost_with_session) {
        throw_lock_exception(ce_exception, name, nullptr,
                             "Lock was lost with the session it was taken on: nothing to renew",
                             nullptr);
        RETURN_THROWS();
    }
    RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, assertTTL) {
    zval *min_ttl = nullptr;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(min_ttl)
    ZEND_PARSE_PARAMETERS_END();
    zval rv;
    zval *name = zend_read_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName",
                                    sizeof("lockName") - 1, 1, &rv);
    zval copy;
    ZVAL_COPY_DEREF(&copy, name);
    do_assert_ttl(INTERNAL_FUNCTION_PARAM_PASSTHRU, &copy, min_ttl,
                  handle_acquisition(Z_OBJ_P(ZEND_THIS)));
    zval_ptr_dtor(&copy);
    if (EG(exception)) RETURN_THROWS();
    RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

// --- module hooks ---------------------------------------------------------------------

void nativelock_sharedlock_minit(int) {
    ce_exception =
        register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException(zend_ce_exception);
    ce_acquire = register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException(
        ce_exception);
    ce_timeout =
        register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException(ce_acquire);
    ce_release = register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException(
        ce_exception);
    ce_remaining_ttl =
        register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException(
            ce_exception);
    ce_table_repair =
        register_class_ItsMieger_MySqlSharedLocks_Exception_TableRepairException(zend_ce_exception);
    ce_shared_lock = register_class_ItsMieger_MySqlSharedLocks_SharedLock();
    // configureConnection(…, #[\SensitiveParameter] $password, …): traces never show it.
    zend_add_parameter_attribute(static_cast<zend_function *>(zend_hash_str_find_ptr(
                                     &ce_shared_lock->function_table, "configureconnection",
                                     sizeof("configureconnection") - 1)),
                                 3, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
    ce_handle = register_class_ItsMieger_MySqlSharedLocks_SharedLockHandle();
    minit_handle_objects();
    zend_register_class_alias("SharedLock", ce_shared_lock);
}
