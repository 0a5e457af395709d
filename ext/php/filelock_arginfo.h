/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 9f334debadc1448012d2b8f4bf190308fb232c43 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Filelock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Filelock_is_locked, 0, 0, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Filelock_try_lock arginfo_class_Filelock_is_locked

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Filelock_lock, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Filelock_unlock, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, force, IS_MIXED, 0, "false")
ZEND_END_ARG_INFO()

#define arginfo_class_Filelock_bake_data arginfo_class_Filelock_is_locked

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Filelock_getFencingToken, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Filelock, __construct);
ZEND_METHOD(Filelock, is_locked);
ZEND_METHOD(Filelock, try_lock);
ZEND_METHOD(Filelock, lock);
ZEND_METHOD(Filelock, unlock);
ZEND_METHOD(Filelock, bake_data);
ZEND_METHOD(Filelock, getFencingToken);


static const zend_function_entry class_Filelock_methods[] = {
	ZEND_ME(Filelock, __construct, arginfo_class_Filelock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Filelock, is_locked, arginfo_class_Filelock_is_locked, ZEND_ACC_PUBLIC)
	ZEND_ME(Filelock, try_lock, arginfo_class_Filelock_try_lock, ZEND_ACC_PUBLIC)
	ZEND_ME(Filelock, lock, arginfo_class_Filelock_lock, ZEND_ACC_PUBLIC)
	ZEND_ME(Filelock, unlock, arginfo_class_Filelock_unlock, ZEND_ACC_PUBLIC)
	ZEND_ME(Filelock, bake_data, arginfo_class_Filelock_bake_data, ZEND_ACC_PUBLIC)
	ZEND_ME(Filelock, getFencingToken, arginfo_class_Filelock_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static void register_filelock_symbols(int module_number)
{
	REGISTER_LONG_CONSTANT("LOCKFILE_SUCCESS", LOCKFILE_SUCCESS, CONST_PERSISTENT);
	ZEND_ASSERT(LOCKFILE_SUCCESS == 1);
	REGISTER_LONG_CONSTANT("LOCKFILE_ERROR_ALREADY_LOCKED", LOCKFILE_ERROR_ALREADY_LOCKED, CONST_PERSISTENT);
	ZEND_ASSERT(LOCKFILE_ERROR_ALREADY_LOCKED == -1);
	REGISTER_LONG_CONSTANT("LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK", LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK, CONST_PERSISTENT);
	ZEND_ASSERT(LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK == -2);
}

static zend_class_entry *register_class_Filelock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "Filelock", class_Filelock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_NOT_SERIALIZABLE;

	zval property_lockpath_default_value;
	zend_string *property_lockpath_default_value_str = zend_string_init("/tmp/", strlen("/tmp/"), 1);
	ZVAL_STR(&property_lockpath_default_value, property_lockpath_default_value_str);
	zend_string *property_lockpath_name = zend_string_init("lockpath", sizeof("lockpath") - 1, 1);
	zend_declare_property_ex(class_entry, property_lockpath_name, &property_lockpath_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC, NULL);
	zend_string_release(property_lockpath_name);

	return class_entry;
}
