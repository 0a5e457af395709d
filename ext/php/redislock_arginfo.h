/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 3eb985454b1a8e5aa0e5df7a5e8dc06193bf34a9 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock_setRedis, 0, 0, 1)
	ZEND_ARG_INFO(0, redis)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock_ensureRedisIsSet, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock_createAndLock, 0, 0, 2)
	ZEND_ARG_INFO(0, name)
	ZEND_ARG_INFO(0, timeout)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, failBehavior, "RedisLock::FAIL_EXCEPT")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_create arginfo_class_RedisLock_createAndLock

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock___construct, 0, 0, 3)
	ZEND_ARG_INFO(0, name)
	ZEND_ARG_INFO(0, timeout)
	ZEND_ARG_INFO(0, failBehavior)
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_key arginfo_class_RedisLock_ensureRedisIsSet

#define arginfo_class_RedisLock_lock arginfo_class_RedisLock_ensureRedisIsSet

#define arginfo_class_RedisLock_release arginfo_class_RedisLock_ensureRedisIsSet

#define arginfo_class_RedisLock_releaseAllCurrentlyHeldLocks arginfo_class_RedisLock_ensureRedisIsSet

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_refresh, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_getRemainingLifetime, 0, 0, IS_DOUBLE, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_isAcquired, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_setAutoRenew, 0, 0, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, enabled, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_isAutoRenewed arginfo_class_RedisLock_isAcquired

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_getFencingToken, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(RedisLock, setRedis);
ZEND_METHOD(RedisLock, ensureRedisIsSet);
ZEND_METHOD(RedisLock, createAndLock);
ZEND_METHOD(RedisLock, create);
ZEND_METHOD(RedisLock, __construct);
ZEND_METHOD(RedisLock, key);
ZEND_METHOD(RedisLock, lock);
ZEND_METHOD(RedisLock, release);
ZEND_METHOD(RedisLock, releaseAllCurrentlyHeldLocks);
ZEND_METHOD(RedisLock, refresh);
ZEND_METHOD(RedisLock, getRemainingLifetime);
ZEND_METHOD(RedisLock, isAcquired);
ZEND_METHOD(RedisLock, setAutoRenew);
ZEND_METHOD(RedisLock, isAutoRenewed);
ZEND_METHOD(RedisLock, getFencingToken);


static const zend_function_entry class_RedisLockFailException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLockConnectionException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLock_methods[] = {
	ZEND_ME(RedisLock, setRedis, arginfo_class_RedisLock_setRedis, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, ensureRedisIsSet, arginfo_class_RedisLock_ensureRedisIsSet, ZEND_ACC_PROTECTED|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, createAndLock, arginfo_class_RedisLock_createAndLock, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, create, arginfo_class_RedisLock_create, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, __construct, arginfo_class_RedisLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, key, arginfo_class_RedisLock_key, ZEND_ACC_PROTECTED)
	ZEND_ME(RedisLock, lock, arginfo_class_RedisLock_lock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, release, arginfo_class_RedisLock_release, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, releaseAllCurrentlyHeldLocks, arginfo_class_RedisLock_releaseAllCurrentlyHeldLocks, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, refresh, arginfo_class_RedisLock_refresh, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, getRemainingLifetime, arginfo_class_RedisLock_getRemainingLifetime, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, isAcquired, arginfo_class_RedisLock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, setAutoRenew, arginfo_class_RedisLock_setAutoRenew, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, isAutoRenewed, arginfo_class_RedisLock_isAutoRenewed, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, getFencingToken, arginfo_class_RedisLock_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLockFailException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockFailException", class_RedisLockFailException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_RedisLockConnectionException(zend_class_entry *class_entry_RedisLockFailException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockConnectionException", class_RedisLockConnectionException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockFailException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLock", class_RedisLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_NOT_SERIALIZABLE;

	zval const_DEFAULT_TIMEOUT_value;
	ZVAL_LONG(&const_DEFAULT_TIMEOUT_value, 20);
	zend_string *const_DEFAULT_TIMEOUT_name = zend_string_init_interned("DEFAULT_TIMEOUT", sizeof("DEFAULT_TIMEOUT") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_DEFAULT_TIMEOUT_name, &const_DEFAULT_TIMEOUT_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_DEFAULT_TIMEOUT_name);

	zval const_FAIL_EXCEPT_value;
	zend_string *const_FAIL_EXCEPT_value_str = zend_string_init("fail_except", strlen("fail_except"), 1);
	ZVAL_STR(&const_FAIL_EXCEPT_value, const_FAIL_EXCEPT_value_str);
	zend_string *const_FAIL_EXCEPT_name = zend_string_init_interned("FAIL_EXCEPT", sizeof("FAIL_EXCEPT") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_FAIL_EXCEPT_name, &const_FAIL_EXCEPT_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_FAIL_EXCEPT_name);

	zval const_FAIL_RETURN_value;
	zend_string *const_FAIL_RETURN_value_str = zend_string_init("fail_return", strlen("fail_return"), 1);
	ZVAL_STR(&const_FAIL_RETURN_value, const_FAIL_RETURN_value_str);
	zend_string *const_FAIL_RETURN_name = zend_string_init_interned("FAIL_RETURN", sizeof("FAIL_RETURN") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_FAIL_RETURN_name, &const_FAIL_RETURN_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_FAIL_RETURN_name);

	zval const_FAIL_BLOCK_value;
	zend_string *const_FAIL_BLOCK_value_str = zend_string_init("fail_block", strlen("fail_block"), 1);
	ZVAL_STR(&const_FAIL_BLOCK_value, const_FAIL_BLOCK_value_str);
	zend_string *const_FAIL_BLOCK_name = zend_string_init_interned("FAIL_BLOCK", sizeof("FAIL_BLOCK") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_FAIL_BLOCK_name, &const_FAIL_BLOCK_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_FAIL_BLOCK_name);

	zval property_redis_default_value;
	ZVAL_NULL(&property_redis_default_value);
	zend_string *property_redis_name = zend_string_init("redis", sizeof("redis") - 1, 1);
	zend_declare_property_ex(class_entry, property_redis_name, &property_redis_default_value, ZEND_ACC_PROTECTED|ZEND_ACC_STATIC, NULL);
	zend_string_release(property_redis_name);

	zval property_name_default_value;
	ZVAL_NULL(&property_name_default_value);
	zend_string *property_name_name = zend_string_init("name", sizeof("name") - 1, 1);
	zend_declare_property_ex(class_entry, property_name_name, &property_name_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_name_name);

	zval property_value_default_value;
	ZVAL_NULL(&property_value_default_value);
	zend_string *property_value_name = zend_string_init("value", sizeof("value") - 1, 1);
	zend_declare_property_ex(class_entry, property_value_name, &property_value_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_value_name);

	zval property_failBehavior_default_value;
	ZVAL_NULL(&property_failBehavior_default_value);
	zend_string *property_failBehavior_name = zend_string_init("failBehavior", sizeof("failBehavior") - 1, 1);
	zend_declare_property_ex(class_entry, property_failBehavior_name, &property_failBehavior_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_failBehavior_name);

	zval property_timeout_default_value;
	ZVAL_NULL(&property_timeout_default_value);
	zend_string *property_timeout_name = zend_string_init("timeout", sizeof("timeout") - 1, 1);
	zend_declare_property_ex(class_entry, property_timeout_name, &property_timeout_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_timeout_name);

	zval property_needsRelease_default_value;
	ZVAL_FALSE(&property_needsRelease_default_value);
	zend_string *property_needsRelease_name = zend_string_init("needsRelease", sizeof("needsRelease") - 1, 1);
	zend_declare_property_ex(class_entry, property_needsRelease_name, &property_needsRelease_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_needsRelease_name);

	return class_entry;
}
