// The module: INI settings, lifecycle hooks and phpinfo(). Classes live in their own files.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php_nativelock.h"

extern "C" {
#include "ext/standard/info.h"
#include "php_ini.h"
}

#include <hiredis/hiredis.h>
#include <mysql.h>

#include "common/renewer.hpp"
#include "native_api.h"
#include "request_registry.h"

ZEND_DECLARE_MODULE_GLOBALS(nativelock)

namespace {

ZEND_INI_MH(OnUpdateTimeout) {
    double value = zend_strtod(ZSTR_VAL(new_value), nullptr);
    if (!(value > 0) || value > 86400) {
        php_error_docref(nullptr, E_WARNING,
                         "%s must be a number of seconds in (0, 86400], \"%s\" given",
                         ZSTR_VAL(entry->name), ZSTR_VAL(new_value));
        return FAILURE;
    }
    return OnUpdateReal(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

// A day: longer is no pool limit worth the name, and keeps the conversion to the clock exact.
constexpr double kMaxPoolIdleSeconds = 86400;

// A whole number of seconds or a fraction, from 0 (close at request end) to a day. Text that is
// not a number is refused rather than read as 0, which would quietly disable pooling.
ZEND_INI_MH(OnUpdatePoolIdleTimeout) {
    const char *text = ZSTR_VAL(new_value);
    const char *end = nullptr;
    double value = zend_strtod(text, &end);  // skips leading blanks
    bool is_a_number = end != text;
    while (*end == ' ' || *end == '\t') ++end;
    bool whole_text_is_a_number = is_a_number && end == text + ZSTR_LEN(new_value);
    if (!whole_text_is_a_number || !(value >= 0) || !(value <= kMaxPoolIdleSeconds)) {
        php_error_docref(nullptr, E_WARNING,
                         "%s must be a number of seconds in [0, 86400] (0: pooled connections "
                         "are closed at the end of every request), \"%s\" given",
                         ZSTR_VAL(entry->name), ZSTR_VAL(new_value));
        return FAILURE;
    }
    return OnUpdateReal(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

ZEND_INI_MH(OnUpdateSharedLockDriver) {
    if (!zend_string_equals_literal(new_value, "native") &&
        !zend_string_equals_literal(new_value, "pdo")) {
        php_error_docref(nullptr, E_WARNING,
                         "nativelock.sharedlock_driver must be \"native\" or \"pdo\", \"%s\" given",
                         ZSTR_VAL(new_value));
        return FAILURE;
    }
    return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

}  // namespace

PHP_INI_BEGIN()
STD_PHP_INI_ENTRY("nativelock.lockpath", "/tmp/", PHP_INI_ALL, OnUpdateString, lockpath,
                  zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_BOOLEAN("nativelock.auto_release", "1", PHP_INI_ALL, OnUpdateBool, auto_release,
                    zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_ENTRY("nativelock.redis_connect_timeout", "2", PHP_INI_ALL, OnUpdateTimeout,
                  redis_connect_timeout, zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_ENTRY("nativelock.redis_read_timeout", "5", PHP_INI_ALL, OnUpdateTimeout,
                  redis_read_timeout, zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_ENTRY("nativelock.mysql_connect_timeout", "2", PHP_INI_ALL, OnUpdateTimeout,
                  mysql_connect_timeout, zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_ENTRY("nativelock.mysql_read_timeout", "30", PHP_INI_ALL, OnUpdateTimeout,
                  mysql_read_timeout, zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_ENTRY("nativelock.sharedlock_driver", "native", PHP_INI_ALL, OnUpdateSharedLockDriver,
                  sharedlock_driver, zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_BOOLEAN("nativelock.fencing", "0", PHP_INI_ALL, OnUpdateBool, fencing,
                    zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_BOOLEAN("nativelock.auto_renew", "0", PHP_INI_ALL, OnUpdateBool, auto_renew,
                    zend_nativelock_globals, nativelock_globals)
STD_PHP_INI_ENTRY("nativelock.pool_idle_timeout", "60", PHP_INI_ALL, OnUpdatePoolIdleTimeout,
                  pool_idle_timeout, zend_nativelock_globals, nativelock_globals)
PHP_INI_END()

std::chrono::steady_clock::duration nativelock::php::pool_idle_timeout() {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(NATIVELOCK_G(pool_idle_timeout)));
}

void nativelock::php::print_pool_row(const char *label, std::size_t open, std::size_t opened,
                                     std::size_t closed_idle) {
    char text[160];
    snprintf(text, sizeof text,
             "%zu open, %zu opened in this process, %zu closed idle (idle timeout %g s)", open,
             opened, closed_idle, NATIVELOCK_G(pool_idle_timeout));
    php_info_print_table_row(2, label, text);
}

// The auto-renewal thread (nativelock.auto_renew): whether it runs, the locks it renews now and
// what its renewals found, in this process.
static void print_renewer_info() {
    nativelock::renew::RenewerStats s = nativelock::renew::Renewer::instance().stats();
    char text[200];
    php_info_print_table_start();
    php_info_print_table_header(2, "Auto-renewal", NATIVELOCK_G(auto_renew) ? "on" : "off");
    php_info_print_table_row(2, "Auto-renewal thread", s.running ? "running" : "not running");
    snprintf(text, sizeof text, "%zu", s.leases);
    php_info_print_table_row(2, "Auto-renewal locks renewed now", text);
    snprintf(text, sizeof text,
             "%llu renewed, %llu failed, %llu found lost; %llu thread starts, %zu connections",
             static_cast<unsigned long long>(s.renewed), static_cast<unsigned long long>(s.failed),
             static_cast<unsigned long long>(s.lost),
             static_cast<unsigned long long>(s.threads_started), s.connections);
    php_info_print_table_row(2, "Auto-renewal renewals", text);
    php_info_print_table_end();
}

static PHP_GINIT_FUNCTION(nativelock) {
#if defined(COMPILE_DL_NATIVELOCK) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    memset(nativelock_globals, 0, sizeof(*nativelock_globals));
}

// Per process under NTS, per thread under ZTS: what the classes keep across requests.
static PHP_GSHUTDOWN_FUNCTION(nativelock) {
    nativelock_redislock_gshutdown(nativelock_globals);
    nativelock_sharedlock_gshutdown(nativelock_globals);
    nativelock_native_gshutdown(nativelock_globals);
}

static PHP_MINIT_FUNCTION(nativelock) {
    REGISTER_INI_ENTRIES();
    nativelock_filelock_minit(module_number);
    nativelock_redislock_minit(module_number);
    nativelock_sharedlock_minit(module_number);
    nativelock_native_minit(module_number);
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(nativelock) {
    (void)type;
    // Every lock was released at the last request end, so its leases ended; a thread still on its
    // way out (closing its connections) is waited for before the module's code is unmapped.
    nativelock::renew::Renewer::instance().shutdown();
    UNREGISTER_INI_ENTRIES();
    return SUCCESS;
}

static PHP_RINIT_FUNCTION(nativelock) {
    (void)type;
    (void)module_number;
#if defined(COMPILE_DL_NATIVELOCK) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    NATIVELOCK_G(held_locks) = nullptr;
    NATIVELOCK_G(request_released) = false;
    nativelock_filelock_rinit();
    return SUCCESS;
}

// Runs after a normal end, exit(), an uncaught exception and fatal errors alike, before the
// object store is freed: every lock still held by this request is released here, and only
// then may pooled connections be handed to the next request. The class hooks then close the
// pooled connections that stood unused for nativelock.pool_idle_timeout.
static PHP_RSHUTDOWN_FUNCTION(nativelock) {
    (void)type;
    (void)module_number;
    nativelock::php::registry_drain();
    nativelock_filelock_rshutdown();
    nativelock_redislock_rshutdown();
    nativelock_sharedlock_rshutdown();
    nativelock_native_rshutdown();
    NATIVELOCK_G(request_released) = true;
    return SUCCESS;
}

// After the object store was freed. User code can still run after RSHUTDOWN: a session save
// handler's write() and close() (the session module, built into PHP, is shut down after this
// shared extension), a user stream wrapper closed with the resource list. Lock objects it
// made released their locks as they were freed; SharedLock's request state, made anew by it,
// is released and dropped here, so that it cannot reach the next request. The registry's
// entries were those of objects now gone.
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(nativelock) {
    nativelock_sharedlock_post_deactivate();
    // RedisLock's request settings (a setRedis() of that late code) end with the request too.
    nativelock_redislock_forget_settings();
    NATIVELOCK_G(held_locks) = nullptr;
    return SUCCESS;
}

static PHP_MINFO_FUNCTION(nativelock) {
    char hiredis_version[32];
    snprintf(hiredis_version, sizeof hiredis_version, "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR,
             HIREDIS_PATCH);
    php_info_print_table_start();
    php_info_print_table_header(2, "nativelock support", "enabled");
    php_info_print_table_row(2, "Version", PHP_NATIVELOCK_VERSION);
    php_info_print_table_row(2, "Classes",
                             "Filelock, RedisLock, ItsMieger\\MySqlSharedLocks\\SharedLock");
    php_info_print_table_row(2, "Filelock backend", "hard-link protocol, inotify + pidfd wake-up");
    php_info_print_table_row(2, "hiredis version", hiredis_version);
    php_info_print_table_row(2, "MySQL client library", mysql_get_client_info());
    php_info_print_table_end();
    nativelock_filelock_minfo();
    nativelock_redislock_minfo();
    nativelock_sharedlock_minfo();
    print_renewer_info();
    DISPLAY_INI_ENTRIES();
}

static const zend_module_dep nativelock_deps[] = {ZEND_MOD_REQUIRED("spl") ZEND_MOD_OPTIONAL("pdo")
                                                      ZEND_MOD_OPTIONAL("redis") ZEND_MOD_END};

zend_module_entry nativelock_module_entry = {
    STANDARD_MODULE_HEADER_EX,
    nullptr,
    nativelock_deps,
    "nativelock",
    nullptr,
    PHP_MINIT(nativelock),
    PHP_MSHUTDOWN(nativelock),
    PHP_RINIT(nativelock),
    PHP_RSHUTDOWN(nativelock),
    PHP_MINFO(nativelock),
    PHP_NATIVELOCK_VERSION,
    PHP_MODULE_GLOBALS(nativelock),
    PHP_GINIT(nativelock),
    PHP_GSHUTDOWN(nativelock),
    ZEND_MODULE_POST_ZEND_DEACTIVATE_N(nativelock),
    STANDARD_MODULE_PROPERTIES_EX,
};

#ifdef COMPILE_DL_NATIVELOCK
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
extern "C" {
ZEND_GET_MODULE(nativelock)
}
#endif
