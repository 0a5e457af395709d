// RedisLock's construction as the gist does it in userland: __construct, new static(...) with
// an overriding constructor, create() and createAndLock() dispatching to overrides of
// create() and lock(). Only PHP here; the core is entered by lock() (redislock.cpp).
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "redislock_object.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"
}

#include "common/process.hpp"
#include "common/random.hpp"

namespace nativelock::php::redislock {

namespace {

bool fail_constant_matches(zend_class_entry *ce, zval *value, const char *name,
                           const char *literal) {
    if (ce == lock_ce) {
        zval *v = value;
        ZVAL_DEREF(v);
        if (Z_TYPE_P(v) == IS_STRING) {
            // string == string: numeric strings never match these literals, so bytes decide.
            return zend_string_equals_cstr(Z_STR_P(v), literal, strlen(literal));
        }
        zval expected;
        ZVAL_STRING(&expected, literal);
        bool eq = zend_compare(v, &expected) == 0;
        zval_ptr_dtor(&expected);
        return eq;
    }
    zend_string *const_name = zend_string_init(name, strlen(name), 0);
    zval *c = zend_get_class_constant_ex(ce->name, const_name, ce, 0);
    zend_string_release(const_name);
    if (!c) return false;
    return zend_compare(value, c) == 0;
}

// The original constructor, natively. $this is `object`.
void construct(zend_object *object, zval *name, zval *timeout, zval *fail_behavior) {
    zend_class_entry *ce = object->ce;
    Fail fail;
    // in_array() with ==, in the original's order, against static:: constants.
    if (fail_constant_matches(ce, fail_behavior, "FAIL_EXCEPT", "fail_except")) {
        fail = Fail::Except;
    } else if (!EG(exception) &&
               fail_constant_matches(ce, fail_behavior, "FAIL_RETURN", "fail_return")) {
        fail = Fail::Return;
    } else if (!EG(exception) &&
               fail_constant_matches(ce, fail_behavior, "FAIL_BLOCK", "fail_block")) {
        fail = Fail::Block;
    } else {
        if (EG(exception)) return;
        zend_string *text = zval_try_get_string(fail_behavior);
        if (!text) return;
        zend_string *message =
            zend_string_concat2("Unknown fail behavior: ", sizeof("Unknown fail behavior: ") - 1,
                                ZSTR_VAL(text), ZSTR_LEN(text));
        zend_throw_exception(spl_ce_DomainException, ZSTR_VAL(message), 0);
        zend_string_release(message);
        zend_string_release(text);
        return;
    }
    if (EG(exception)) return;
    ZVAL_DEREF(timeout);
    if (Z_TYPE_P(timeout) != IS_LONG) {
        zend_throw_exception(spl_ce_InvalidArgumentException, "$timeout must be an integer.", 0);
        return;
    }
    zend_string *name_str = zval_try_get_string(name);
    if (!name_str) return;

    auto &state = state_of(object);
    if (state.held) {
        // Re-running the constructor on a held lock: let go of it first.
        try {
            release_key(state);
        } catch (...) {
        }
        if (untrack(state)) GC_DELREF(object);
        mark_not_held(state);
    }
    zend_string *value_str = nullptr;
    PendingError error;
    try {
        state.name.assign(ZSTR_VAL(name_str), ZSTR_LEN(name_str));
        state.value = nativelock::random::base64_token(15);
        state.value_tag = nativelock::process::current_tag();
        state.timeout = Z_LVAL_P(timeout);
        state.fail = fail;
        ++state.constructions;
        value_str = zend_string_init(state.value.data(), state.value.size(), 0);
    } catch (...) {
        capture_current_exception(error);
    }
    zend_string_release(name_str);
    if (throw_error(error)) return;
    zval tmp;
    write_property(object, kPropName, name);
    ZVAL_STR(&tmp, value_str);
    write_property(object, kPropValue, &tmp);
    zend_string_release(value_str);
    write_property(object, kPropFailBehavior, fail_behavior);
    ZVAL_LONG(&tmp, Z_LVAL_P(timeout));
    write_property(object, kPropTimeout, &tmp);
    set_needs_release(object, false);
}

// new static($name, $timeout, $failBehavior), honouring an overriding constructor.
bool instantiate(zend_class_entry *scope, zval *args, zval *out) {
    if (object_init_ex(out, scope) != SUCCESS) return false;
    zend_object *object = Z_OBJ_P(out);
    zend_function *ctor = object->handlers->get_constructor(object);
    if (EG(exception)) {
        zval_ptr_dtor(out);
        return false;
    }
    if (ctor && ctor->common.scope != lock_ce) {
        zend_call_known_instance_method(ctor, object, nullptr, 3, args);
    } else {
        construct(object, &args[0], &args[1], &args[2]);
    }
    if (EG(exception)) {
        zend_object_store_ctor_failed(object);
        zval_ptr_dtor(out);
        ZVAL_UNDEF(out);
        return false;
    }
    return true;
}

void default_fail_behavior(zval *out) {
    ZVAL_STRINGL(out, "fail_except", sizeof("fail_except") - 1);
}

// create() and createAndLock() pass ($name, $timeout, $failBehavior = FAIL_EXCEPT) on; the
// default is a new string the caller must release when fail_behavior was not given.
void forward_create_args(zval args[3], zval *name, zval *timeout, zval *fail_behavior) {
    ZVAL_COPY_VALUE(&args[0], name);
    ZVAL_COPY_VALUE(&args[1], timeout);
    if (fail_behavior) {
        ZVAL_COPY_VALUE(&args[2], fail_behavior);
    } else {
        default_fail_behavior(&args[2]);
    }
}

}  // namespace
}  // namespace nativelock::php::redislock

using namespace nativelock::php::redislock;

namespace {

// create($name, $timeout, $failBehavior = FAIL_EXCEPT) and createAndLock(…): the instance
// (new static, or an overriding create() for createAndLock), then for createAndLock its lock().
void create_instance(INTERNAL_FUNCTION_PARAMETERS, bool and_lock) {
    zval *name, *timeout, *fail_behavior = nullptr;
    ZEND_PARSE_PARAMETERS_START(2, 3)
    Z_PARAM_ZVAL(name)
    Z_PARAM_ZVAL(timeout)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(fail_behavior)
    ZEND_PARSE_PARAMETERS_END();
    zval args[3];
    forward_create_args(args, name, timeout, fail_behavior);
    zend_class_entry *scope = zend_get_called_scope(execute_data);
    if (!scope) scope = lock_ce;
    if (!and_lock) {
        bool ok = instantiate(scope, args, return_value);
        if (!fail_behavior) zval_ptr_dtor(&args[2]);
        if (!ok) RETURN_THROWS();
        return;
    }

    // $lock = static::create($name, $timeout, $failBehavior);
    zval lock;
    ZVAL_UNDEF(&lock);
    bool ok;
    if (overridden(scope, "create", 6)) {
        auto *fn = static_cast<zend_function *>(
            zend_hash_str_find_ptr(&scope->function_table, "create", 6));
        zend_call_known_function(fn, nullptr, scope, &lock, 3, args, nullptr);
        ok = !EG(exception) && Z_TYPE(lock) != IS_UNDEF;
    } else {
        ok = instantiate(scope, args, &lock);
    }
    if (!fail_behavior) zval_ptr_dtor(&args[2]);
    if (!ok) {
        zval_ptr_dtor(&lock);
        RETURN_THROWS();
    }
    if (Z_TYPE(lock) != IS_OBJECT) {
        zend_throw_error(nullptr, "Call to a member function lock() on %s",
                         zend_zval_type_name(&lock));
        zval_ptr_dtor(&lock);
        RETURN_THROWS();
    }
    // $return = $lock->lock();
    zval result;
    ZVAL_UNDEF(&result);
    zend_object *object = Z_OBJ(lock);
    if (instanceof_function(object->ce, lock_ce) && !overridden(object->ce, "lock", 4)) {
        do_lock(object, false, 0, &result);
    } else {
        zend_call_method_with_0_params(object, object->ce, nullptr, "lock", &result);
    }
    if (EG(exception)) {
        zval_ptr_dtor(&result);
        zval_ptr_dtor(&lock);
        RETURN_THROWS();
    }
    // return $return === true ? $lock : $return;
    if (Z_TYPE(result) == IS_TRUE) {
        RETVAL_COPY_VALUE(&lock);
        return;
    }
    zval_ptr_dtor(&lock);
    RETVAL_COPY_VALUE(&result);
}

}  // namespace

ZEND_METHOD(RedisLock, create) {
    create_instance(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(RedisLock, createAndLock) {
    create_instance(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(RedisLock, __construct) {
    zval *name, *timeout, *fail_behavior;
    ZEND_PARSE_PARAMETERS_START(3, 3)
    Z_PARAM_ZVAL(name)
    Z_PARAM_ZVAL(timeout)
    Z_PARAM_ZVAL(fail_behavior)
    ZEND_PARSE_PARAMETERS_END();
    (void)return_value;
    construct(Z_OBJ_P(ZEND_THIS), name, timeout, fail_behavior);
}
