// The six exception classes of ItsMieger\MySqlSharedLocks\Exception, with the package's
// constructors, default messages and getters.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharedlock_shim.h"

#include "mysql/protocol.hpp"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"
}

using namespace nativelock::php::sharedlock;

namespace {

// Calls the parent class's constructor of `scope` on this object.
void call_parent_ctor(zend_class_entry *scope, zend_object *object, uint32_t argc, zval *argv) {
    zend_function *ctor = scope->parent->constructor;
    zend_call_known_instance_method(ctor, object, nullptr, argc, argv);
}

// `$message` when non-empty (PHP empty()), else the default text.
void message_or_default(zval *message, zval *out, const std::string &fallback) {
    if (message && zend_is_true(message)) {
        ZVAL_COPY(out, message);
    } else {
        ZVAL_STRINGL(out, fallback.data(), fallback.size());
    }
}

std::string str_of(zval *value) {
    zend_string *s = zval_get_string(value);
    std::string out(ZSTR_VAL(s), ZSTR_LEN(s));
    zend_string_release(s);
    return out;
}

// The tail ($message, $code, $previous) as given, with the message defaulted.
void tail_args(zval *args, zval *message, zval *code, zval *previous, const std::string &fallback) {
    message_or_default(message, &args[0], fallback);
    if (code)
        ZVAL_COPY(&args[1], code);
    else
        ZVAL_LONG(&args[1], 0);
    if (previous)
        ZVAL_COPY(&args[2], previous);
    else
        ZVAL_NULL(&args[2]);
}

void free_args(zval *args, int n) {
    for (int i = 0; i < n; ++i) zval_ptr_dtor(&args[i]);
}

// Subclass constructor with the lock name first and an optional extra argument (timeout,
// ttl) stored in `extra_prop`.
void construct(INTERNAL_FUNCTION_PARAMETERS, zend_class_entry *scope, const char *extra_prop,
               std::string (*fallback)(const std::string &name, const std::string &extra)) {
    (void)return_value;
    zval *lock_name, *extra = nullptr, *message = nullptr, *code = nullptr, *previous = nullptr;
    if (extra_prop) {
        ZEND_PARSE_PARAMETERS_START(2, 5)
        Z_PARAM_ZVAL(lock_name)
        Z_PARAM_ZVAL(extra)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(message)
        Z_PARAM_ZVAL(code)
        Z_PARAM_OBJECT_OF_CLASS_OR_NULL(previous, zend_ce_throwable)
        ZEND_PARSE_PARAMETERS_END();
        zend_update_property(scope, Z_OBJ_P(ZEND_THIS), extra_prop, strlen(extra_prop), extra);
    } else {
        ZEND_PARSE_PARAMETERS_START(1, 4)
        Z_PARAM_ZVAL(lock_name)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(message)
        Z_PARAM_ZVAL(code)
        Z_PARAM_OBJECT_OF_CLASS_OR_NULL(previous, zend_ce_throwable)
        ZEND_PARSE_PARAMETERS_END();
    }
    zval args[4];
    ZVAL_COPY(&args[0], lock_name);
    tail_args(&args[1], message, code, previous,
              fallback ? fallback(str_of(lock_name), extra ? str_of(extra) : std::string())
                       : std::string());
    call_parent_ctor(scope, Z_OBJ_P(ZEND_THIS), 4, args);
    free_args(args, 4);
}

}  // namespace

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockException, __construct) {
    (void)return_value;
    zval *lock_name, *message = nullptr, *code = nullptr, *previous = nullptr;
    ZEND_PARSE_PARAMETERS_START(1, 4)
    Z_PARAM_ZVAL(lock_name)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(message)
    Z_PARAM_ZVAL(code)
    Z_PARAM_OBJECT_OF_CLASS_OR_NULL(previous, zend_ce_throwable)
    ZEND_PARSE_PARAMETERS_END();
    zend_update_property(ce_exception, Z_OBJ_P(ZEND_THIS), "lockName", sizeof("lockName") - 1,
                         lock_name);
    zval args[3];
    if (message)
        ZVAL_COPY(&args[0], message);
    else
        ZVAL_EMPTY_STRING(&args[0]);
    if (code)
        ZVAL_COPY(&args[1], code);
    else
        ZVAL_LONG(&args[1], 0);
    if (previous)
        ZVAL_COPY(&args[2], previous);
    else
        ZVAL_NULL(&args[2]);
    call_parent_ctor(ce_exception, Z_OBJ_P(ZEND_THIS), 3, args);
    free_args(args, 3);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockException, getLockName) {
    ZEND_PARSE_PARAMETERS_NONE();
    zval rv;
    zval *value = zend_read_property(ce_exception, Z_OBJ_P(ZEND_THIS), "lockName",
                                     sizeof("lockName") - 1, 1, &rv);
    RETURN_COPY_DEREF(value);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException, __construct) {
    construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, ce_acquire, nullptr,
              [](const std::string &name, const std::string &) {
                  return "Acquiring lock \"" + name + "\" failed";
              });
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException, __construct) {
    construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, ce_release, nullptr,
              [](const std::string &name, const std::string &) {
                  return "Releasing lock \"" + name + "\" failed";
              });
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException, __construct) {
    construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, ce_timeout, "timeout",
              [](const std::string &name, const std::string &t) {
                  return "Acquiring lock \"" + name + "\" timed out after " + t + " seconds";
              });
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException, getTimeout) {
    ZEND_PARSE_PARAMETERS_NONE();
    zval rv;
    zval *value = zend_read_property(ce_timeout, Z_OBJ_P(ZEND_THIS), "timeout",
                                     sizeof("timeout") - 1, 1, &rv);
    RETURN_COPY_DEREF(value);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException, __construct) {
    construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, ce_remaining_ttl, "ttl",
              [](const std::string &name, const std::string &t) {
                  return "Lock \"" + name + "\" is not to live for " + t + " seconds anymore";
              });
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException, getTTL) {
    ZEND_PARSE_PARAMETERS_NONE();
    zval rv;
    zval *value =
        zend_read_property(ce_remaining_ttl, Z_OBJ_P(ZEND_THIS), "ttl", sizeof("ttl") - 1, 1, &rv);
    RETURN_COPY_DEREF(value);
}

namespace nativelock::php::sharedlock {

void throw_lock_exception(zend_class_entry *ce, zval *lock_name, zval *extra,
                          const std::string &message, zend_object *previous) {
    zval exception;
    object_init_ex(&exception, ce);
    zval args[5];
    uint32_t n = 0;
    ZVAL_COPY(&args[n++], lock_name);
    if (extra) ZVAL_COPY(&args[n++], extra);
    ZVAL_STRINGL(&args[n++], message.data(), message.size());
    ZVAL_LONG(&args[n++], 0);
    if (previous)
        ZVAL_OBJ(&args[n++], previous);
    else
        ZVAL_NULL(&args[n++]);
    zend_call_known_instance_method(ce->constructor, Z_OBJ(exception), nullptr, n, args);
    for (uint32_t i = 0; i < n; ++i) zval_ptr_dtor(&args[i]);
    if (EG(exception)) {
        zval_ptr_dtor(&exception);
        return;
    }
    zend_throw_exception_object(&exception);
}

// --- error mapping at the entry points ------------------------------------------------

void throw_sharedlock_error(const PendingError &error, Op op, zval *name, zval *extra) noexcept {
    // The package's exceptions by kind of core error (a Bailout never gets here: NL_CATCH_WITH
    // re-raises it).
    enum { Timeout, Repair, Acquire, BadName, Other } kind = Other;
    switch (error.category) {
        case ErrorCategory::LockTimeout:
            kind = Timeout;
            break;
        case ErrorCategory::TableRepairFailed:
            kind = Repair;
            break;
        case ErrorCategory::AcquireFailed:
            kind = Acquire;
            break;
        case ErrorCategory::InvalidArgument:
            kind = BadName;
            break;
        default:
            break;
    }
    // A signal handler's exception or exit() inside a PDO call is what the caller sees.
    if (rethrow_deferred_throwable()) return;
    const std::string what =
        error.category == ErrorCategory::Unknown ? "unknown internal error" : error.message;
    zend_object *previous = take_previous();
    if (!previous && kind != Timeout && kind != Acquire && kind != BadName) {
        zend_class_entry *pce = kind == Repair ? ce_table_repair : spl_ce_RuntimeException;
        zval p;
        object_init_ex(&p, pce);
        zend_update_property_stringl(zend_ce_exception, Z_OBJ(p), "message", sizeof("message") - 1,
                                     what.data(), what.size());
        previous = Z_OBJ(p);
    }
    switch (op) {
        case Op::Lock:
            if (kind == Timeout) {
                if (previous) OBJ_RELEASE(previous);
                throw_lock_exception(ce_timeout, name, extra, "", nullptr);
            } else if (kind == Repair || kind == Acquire || kind == BadName) {
                throw_lock_exception(ce_acquire, name, nullptr, what, previous);
            } else {
                throw_lock_exception(ce_acquire, name, nullptr, "", previous);
            }
            break;
        case Op::Unlock:
            throw_lock_exception(ce_release, name, nullptr, kind == Repair ? what : std::string(),
                                 previous);
            break;
        case Op::AssertTTL:
            if (kind == Repair)
                throw_lock_exception(ce_exception, name, nullptr, what, previous);
            else
                throw_lock_exception(ce_remaining_ttl, name, extra, "", previous);
            break;
        case Op::Repair:
        case Op::Other:
            if (kind == BadName) {
                // Bad input outside a lock operation (configureConnection()'s $additionalDsn).
                if (previous) OBJ_RELEASE(previous);
                zend_value_error("%s", what.c_str());
            } else if (previous && kind != Repair && previous->ce != spl_ce_RuntimeException) {
                // A PHP exception (PDOException) propagates as the package lets it.
                zval ex;
                ZVAL_OBJ(&ex, previous);
                zend_throw_exception_object(&ex);
            } else {
                if (previous) OBJ_RELEASE(previous);
                zend_throw_exception(kind == Repair ? ce_table_repair : spl_ce_RuntimeException,
                                     what.c_str(), 0);
            }
            break;
    }
    return;
}

}  // namespace nativelock::php::sharedlock
