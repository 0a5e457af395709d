/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: a67ea5e473ac6d1b29bb2e900483cc3321f69c08 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Backend_getName, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Backend_supportsShared, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Nativelock_RedisBackend___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, connection, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, format, IS_STRING, 0, "Nativelock\\RedisBackend::FORMAT_PLAIN")
ZEND_END_ARG_INFO()

#define arginfo_class_Nativelock_RedisBackend_getFormat arginfo_class_Nativelock_Backend_getName

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_RedisBackend_currentOwner, 0, 1, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_RedisBackend_forceRelease, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Nativelock_FileBackend___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, directory, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Nativelock_FileBackend_getDirectory arginfo_class_Nativelock_Backend_getName

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Nativelock_MysqlBackend___construct, 0, 0, 1)
	ZEND_ARG_OBJ_TYPE_MASK(0, dsn, PDO, MAY_BE_STRING, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, username, IS_STRING, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, password, IS_STRING, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, table, IS_STRING, 0, "\"shared_locks\"")
ZEND_END_ARG_INFO()

#define arginfo_class_Nativelock_MysqlBackend_getTable arginfo_class_Nativelock_Backend_getName

#define arginfo_class_Nativelock_MysqlBackend_forceRelease arginfo_class_Nativelock_RedisBackend_forceRelease

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Nativelock_Lock___construct, 0, 0, 2)
	ZEND_ARG_OBJ_INFO(0, backend, Nativelock\\Backend, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, token, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Lock_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_DOUBLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 1, "0.0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, shared, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Lock_refresh, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Nativelock_Lock_release arginfo_class_Nativelock_Backend_supportsShared

#define arginfo_class_Nativelock_Lock_isHeld arginfo_class_Nativelock_Backend_supportsShared

#define arginfo_class_Nativelock_Lock_isAcquired arginfo_class_Nativelock_Backend_supportsShared

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Lock_setAutoRenew, 0, 0, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, enabled, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

#define arginfo_class_Nativelock_Lock_isAutoRenewed arginfo_class_Nativelock_Backend_supportsShared

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Lock_getRemainingLifetime, 0, 0, IS_DOUBLE, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Lock_detach, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Nativelock_Lock_getKey arginfo_class_Nativelock_Backend_getName

#define arginfo_class_Nativelock_Lock_getToken arginfo_class_Nativelock_Backend_getName

#define arginfo_class_Nativelock_Lock_isShared arginfo_class_Nativelock_Backend_supportsShared

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Nativelock_Lock_getFencingToken, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Nativelock_Lock_getBackend, 0, 0, Nativelock\\Backend, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Nativelock_Backend, getName);
ZEND_METHOD(Nativelock_Backend, supportsShared);
ZEND_METHOD(Nativelock_RedisBackend, __construct);
ZEND_METHOD(Nativelock_RedisBackend, getFormat);
ZEND_METHOD(Nativelock_RedisBackend, currentOwner);
ZEND_METHOD(Nativelock_RedisBackend, forceRelease);
ZEND_METHOD(Nativelock_FileBackend, __construct);
ZEND_METHOD(Nativelock_FileBackend, getDirectory);
ZEND_METHOD(Nativelock_MysqlBackend, __construct);
ZEND_METHOD(Nativelock_MysqlBackend, getTable);
ZEND_METHOD(Nativelock_MysqlBackend, forceRelease);
ZEND_METHOD(Nativelock_Lock, __construct);
ZEND_METHOD(Nativelock_Lock, acquire);
ZEND_METHOD(Nativelock_Lock, refresh);
ZEND_METHOD(Nativelock_Lock, release);
ZEND_METHOD(Nativelock_Lock, isHeld);
ZEND_METHOD(Nativelock_Lock, isAcquired);
ZEND_METHOD(Nativelock_Lock, setAutoRenew);
ZEND_METHOD(Nativelock_Lock, isAutoRenewed);
ZEND_METHOD(Nativelock_Lock, getRemainingLifetime);
ZEND_METHOD(Nativelock_Lock, detach);
ZEND_METHOD(Nativelock_Lock, getKey);
ZEND_METHOD(Nativelock_Lock, getToken);
ZEND_METHOD(Nativelock_Lock, isShared);
ZEND_METHOD(Nativelock_Lock, getFencingToken);
ZEND_METHOD(Nativelock_Lock, getBackend);


static const zend_function_entry class_Nativelock_LockException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Nativelock_NotSupportedException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Nativelock_Backend_methods[] = {
	ZEND_ME(Nativelock_Backend, getName, arginfo_class_Nativelock_Backend_getName, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Backend, supportsShared, arginfo_class_Nativelock_Backend_supportsShared, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Nativelock_RedisBackend_methods[] = {
	ZEND_ME(Nativelock_RedisBackend, __construct, arginfo_class_Nativelock_RedisBackend___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_RedisBackend, getFormat, arginfo_class_Nativelock_RedisBackend_getFormat, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_RedisBackend, currentOwner, arginfo_class_Nativelock_RedisBackend_currentOwner, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_RedisBackend, forceRelease, arginfo_class_Nativelock_RedisBackend_forceRelease, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Nativelock_FileBackend_methods[] = {
	ZEND_ME(Nativelock_FileBackend, __construct, arginfo_class_Nativelock_FileBackend___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_FileBackend, getDirectory, arginfo_class_Nativelock_FileBackend_getDirectory, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Nativelock_MysqlBackend_methods[] = {
	ZEND_ME(Nativelock_MysqlBackend, __construct, arginfo_class_Nativelock_MysqlBackend___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_MysqlBackend, getTable, arginfo_class_Nativelock_MysqlBackend_getTable, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_MysqlBackend, forceRelease, arginfo_class_Nativelock_MysqlBackend_forceRelease, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Nativelock_Lock_methods[] = {
	ZEND_ME(Nativelock_Lock, __construct, arginfo_class_Nativelock_Lock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, acquire, arginfo_class_Nativelock_Lock_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, refresh, arginfo_class_Nativelock_Lock_refresh, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, release, arginfo_class_Nativelock_Lock_release, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, isHeld, arginfo_class_Nativelock_Lock_isHeld, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, isAcquired, arginfo_class_Nativelock_Lock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, setAutoRenew, arginfo_class_Nativelock_Lock_setAutoRenew, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, isAutoRenewed, arginfo_class_Nativelock_Lock_isAutoRenewed, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, getRemainingLifetime, arginfo_class_Nativelock_Lock_getRemainingLifetime, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, detach, arginfo_class_Nativelock_Lock_detach, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, getKey, arginfo_class_Nativelock_Lock_getKey, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, getToken, arginfo_class_Nativelock_Lock_getToken, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, isShared, arginfo_class_Nativelock_Lock_isShared, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, getFencingToken, arginfo_class_Nativelock_Lock_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_ME(Nativelock_Lock, getBackend, arginfo_class_Nativelock_Lock_getBackend, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Nativelock_LockException(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Nativelock", "LockException", class_Nativelock_LockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}

static zend_class_entry *register_class_Nativelock_NotSupportedException(zend_class_entry *class_entry_Nativelock_LockException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Nativelock", "NotSupportedException", class_Nativelock_NotSupportedException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Nativelock_LockException);

	return class_entry;
}

static zend_class_entry *register_class_Nativelock_Backend(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Nativelock", "Backend", class_Nativelock_Backend_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_ABSTRACT|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Nativelock_RedisBackend(zend_class_entry *class_entry_Nativelock_Backend)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Nativelock", "RedisBackend", class_Nativelock_RedisBackend_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Nativelock_Backend);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	zval const_FORMAT_PLAIN_value;
	zend_string *const_FORMAT_PLAIN_value_str = zend_string_init("plain", strlen("plain"), 1);
	ZVAL_STR(&const_FORMAT_PLAIN_value, const_FORMAT_PLAIN_value_str);
	zend_string *const_FORMAT_PLAIN_name = zend_string_init_interned("FORMAT_PLAIN", sizeof("FORMAT_PLAIN") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_FORMAT_PLAIN_name, &const_FORMAT_PLAIN_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_FORMAT_PLAIN_name);

	zval const_FORMAT_SYMFONY_value;
	zend_string *const_FORMAT_SYMFONY_value_str = zend_string_init("symfony", strlen("symfony"), 1);
	ZVAL_STR(&const_FORMAT_SYMFONY_value, const_FORMAT_SYMFONY_value_str);
	zend_string *const_FORMAT_SYMFONY_name = zend_string_init_interned("FORMAT_SYMFONY", sizeof("FORMAT_SYMFONY") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_FORMAT_SYMFONY_name, &const_FORMAT_SYMFONY_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_FORMAT_SYMFONY_name);

	return class_entry;
}

static zend_class_entry *register_class_Nativelock_FileBackend(zend_class_entry *class_entry_Nativelock_Backend)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Nativelock", "FileBackend", class_Nativelock_FileBackend_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Nativelock_Backend);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Nativelock_MysqlBackend(zend_class_entry *class_entry_Nativelock_Backend)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Nativelock", "MysqlBackend", class_Nativelock_MysqlBackend_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Nativelock_Backend);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Nativelock_Lock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Nativelock", "Lock", class_Nativelock_Lock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
