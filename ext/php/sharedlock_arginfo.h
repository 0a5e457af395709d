/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 35e54edb41400a0a9e550f75daa756a015fdc99e */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException___construct, 0, 0, 1)
	ZEND_ARG_INFO(0, lockName)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, message, "\"\"")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, code, "0")
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, previous, Throwable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName, 0, 0, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException___construct arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException___construct

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException___construct, 0, 0, 2)
	ZEND_ARG_INFO(0, lockName)
	ZEND_ARG_INFO(0, timeout)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, message, "\"\"")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, code, "0")
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, previous, Throwable, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException_getTimeout arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName

#define arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException___construct arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException___construct

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException___construct, 0, 0, 2)
	ZEND_ARG_INFO(0, lockName)
	ZEND_ARG_INFO(0, ttl)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, message, "\"\"")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, code, "0")
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, previous, Throwable, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException_getTTL arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_configureConnection, 0, 0, 4)
	ZEND_ARG_INFO(0, host)
	ZEND_ARG_INFO(0, dbName)
	ZEND_ARG_INFO(0, username)
	ZEND_ARG_INFO(0, password)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, charset, "\'utf8mb4\'")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, port, "null")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, additionalDsn, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_setConnection, 0, 0, 1)
	ZEND_ARG_OBJ_INFO(0, pdo, PDO, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_setQuoteStyle, 0, 0, 1)
	ZEND_ARG_INFO(0, quoteStyle)
ZEND_END_ARG_INFO()

#define arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_getConnection arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName

#define arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_getTable arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_lock, 0, 0, 3)
	ZEND_ARG_INFO(0, name)
	ZEND_ARG_INFO(0, timeout)
	ZEND_ARG_INFO(0, ttl)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_unlock, 0, 0, 1)
	ZEND_ARG_INFO(0, name)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_assertTTL, 0, 0, 1)
	ZEND_ARG_INFO(0, name)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, minRemainingTTL, "1")
ZEND_END_ARG_INFO()

#define arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_tryRepairTable arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_releaseAllHeldLocks, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle___construct, 0, 0, 1)
	ZEND_ARG_INFO(0, lockName)
ZEND_END_ARG_INFO()

#define arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_release arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_assertTTL, 0, 0, 0)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(0, minRemainingTTL, "1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_setAutoRenew, 0, 0, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, enabled, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

#define arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_getFencingToken arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_releaseAllHeldLocks


ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockException, __construct);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockException, getLockName);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException, __construct);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException, __construct);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException, getTimeout);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException, __construct);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException, __construct);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException, getTTL);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, configureConnection);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, setConnection);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, setQuoteStyle);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, getConnection);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, getTable);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, lock);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, unlock);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, assertTTL);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, tryRepairTable);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, releaseAllHeldLocks);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, __construct);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, release);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, assertTTL);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, setAutoRenew);
ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, getFencingToken);


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_methods[] = {
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockException, __construct, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockException, getLockName, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_getLockName, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException_methods[] = {
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException, __construct, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException___construct, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException_methods[] = {
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException, __construct, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException, getTimeout, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException_getTimeout, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException_methods[] = {
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException, __construct, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException___construct, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException_methods[] = {
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException, __construct, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException, getTTL, arginfo_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException_getTTL, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_Exception_TableRepairException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_SharedLock_methods[] = {
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, configureConnection, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_configureConnection, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, setConnection, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_setConnection, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, setQuoteStyle, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_setQuoteStyle, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, getConnection, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_getConnection, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, getTable, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_getTable, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, lock, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_lock, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, unlock, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_unlock, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, assertTTL, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_assertTTL, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, tryRepairTable, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_tryRepairTable, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLock, releaseAllHeldLocks, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLock_releaseAllHeldLocks, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_ItsMieger_MySqlSharedLocks_SharedLockHandle_methods[] = {
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLockHandle, __construct, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLockHandle, release, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_release, ZEND_ACC_PUBLIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLockHandle, assertTTL, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_assertTTL, ZEND_ACC_PUBLIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLockHandle, setAutoRenew, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_setAutoRenew, ZEND_ACC_PUBLIC)
	ZEND_ME(ItsMieger_MySqlSharedLocks_SharedLockHandle, getFencingToken, arginfo_class_ItsMieger_MySqlSharedLocks_SharedLockHandle_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks\\Exception", "SharedLockException", class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	zval property_lockName_default_value;
	ZVAL_NULL(&property_lockName_default_value);
	zend_string *property_lockName_name = zend_string_init("lockName", sizeof("lockName") - 1, 1);
	zend_declare_property_ex(class_entry, property_lockName_name, &property_lockName_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_lockName_name);

	return class_entry;
}

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException(zend_class_entry *class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks\\Exception", "SharedLockAcquireException", class_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockException);

	return class_entry;
}

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException(zend_class_entry *class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks\\Exception", "SharedLockTimeoutException", class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException);

	zval property_timeout_default_value;
	ZVAL_NULL(&property_timeout_default_value);
	zend_string *property_timeout_name = zend_string_init("timeout", sizeof("timeout") - 1, 1);
	zend_declare_property_ex(class_entry, property_timeout_name, &property_timeout_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_timeout_name);

	return class_entry;
}

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException(zend_class_entry *class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks\\Exception", "SharedLockReleaseException", class_ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockException);

	return class_entry;
}

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException(zend_class_entry *class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks\\Exception", "SharedLockRemainingTTLException", class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_ItsMieger_MySqlSharedLocks_Exception_SharedLockException);

	zval property_ttl_default_value;
	ZVAL_NULL(&property_ttl_default_value);
	zend_string *property_ttl_name = zend_string_init("ttl", sizeof("ttl") - 1, 1);
	zend_declare_property_ex(class_entry, property_ttl_name, &property_ttl_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_ttl_name);

	return class_entry;
}

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_Exception_TableRepairException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks\\Exception", "TableRepairException", class_ItsMieger_MySqlSharedLocks_Exception_TableRepairException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_SharedLock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks", "SharedLock", class_ItsMieger_MySqlSharedLocks_SharedLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);

	zval const_QUOTE_STYLE_DEFAULT_value;
	ZVAL_LONG(&const_QUOTE_STYLE_DEFAULT_value, 0);
	zend_string *const_QUOTE_STYLE_DEFAULT_name = zend_string_init_interned("QUOTE_STYLE_DEFAULT", sizeof("QUOTE_STYLE_DEFAULT") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_QUOTE_STYLE_DEFAULT_name, &const_QUOTE_STYLE_DEFAULT_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_QUOTE_STYLE_DEFAULT_name);

	zval const_QUOTE_STYLE_ANSI_value;
	ZVAL_LONG(&const_QUOTE_STYLE_ANSI_value, 1);
	zend_string *const_QUOTE_STYLE_ANSI_name = zend_string_init_interned("QUOTE_STYLE_ANSI", sizeof("QUOTE_STYLE_ANSI") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_QUOTE_STYLE_ANSI_name, &const_QUOTE_STYLE_ANSI_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_QUOTE_STYLE_ANSI_name);

	return class_entry;
}

static zend_class_entry *register_class_ItsMieger_MySqlSharedLocks_SharedLockHandle(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "ItsMieger\\MySqlSharedLocks", "SharedLockHandle", class_ItsMieger_MySqlSharedLocks_SharedLockHandle_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_NOT_SERIALIZABLE;

	zval property_lockName_default_value;
	ZVAL_NULL(&property_lockName_default_value);
	zend_string *property_lockName_name = zend_string_init("lockName", sizeof("lockName") - 1, 1);
	zend_declare_property_ex(class_entry, property_lockName_name, &property_lockName_default_value, ZEND_ACC_PROTECTED, NULL);
	zend_string_release(property_lockName_name);

	return class_entry;
}
