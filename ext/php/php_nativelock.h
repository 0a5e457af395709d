// Module entry, globals and the pieces every class file of the shim shares.
#ifndef PHP_NATIVELOCK_H
#define PHP_NATIVELOCK_H

extern "C" {
#include "php.h"
}

#include <chrono>
#include <cstddef>

#define PHP_NATIVELOCK_VERSION "0.1.0"

extern zend_module_entry nativelock_module_entry;
#define phpext_nativelock_ptr &nativelock_module_entry

namespace nativelock::php {
struct RegistryEntry;
struct RedisLockGlobals;
namespace native {
struct MysqlSessions;
}
namespace sharedlock {
struct Pool;
struct RequestState;
}  // namespace sharedlock
}  // namespace nativelock::php

ZEND_BEGIN_MODULE_GLOBALS(nativelock)
char *lockpath;
bool auto_release;
double redis_connect_timeout;
double redis_read_timeout;
double mysql_connect_timeout;
double mysql_read_timeout;
char *sharedlock_driver;
// nativelock.fencing: acquisitions also draw a fencing token (a counter per lock name).
bool fencing;
// nativelock.auto_renew: TTL'd RedisLock, SharedLock (native driver) and Nativelock\Lock (Redis,
// MySQL) locks are kept alive by the renewer thread while held (each lock may say otherwise).
bool auto_renew;
// Seconds a pooled connection may stand unused (0: none is kept past the request's end).
double pool_idle_timeout;
// Held locks of this request, released at request end (see request_registry.h).
nativelock::php::RegistryEntry *held_locks;
// RSHUTDOWN has released the request's locks; what user code takes later is released as its
// objects are freed (SharedLock's: on the native driver only).
bool request_released;
// SharedLock: this request's state, and this process's pool of native sessions (kept across
// requests; never created in MINIT). Both created on first use.
nativelock::php::sharedlock::RequestState *sharedlock_state;
nativelock::php::sharedlock::Pool *sharedlock_pool;
// SharedLock: the PHP exception a failed PHP call left, kept as `previous` of the next one.
zend_object *sharedlock_stashed_previous;
// SharedLock, PDO driver: a throwable of PHP code that ran inside a PDO call without being its
// error (a pcntl handler's exception or exit()), thrown again by the entry point.
zend_object *sharedlock_deferred_throwable;
// date('d-m-Y H:i:s') of the last second asked, for owner records.
time_t timestamp_second;
char timestamp_text[32];
// RedisLock's connection pool and request parameters (redislock_object.h); allocated on
// first use, freed in GSHUTDOWN.
nativelock::php::RedisLockGlobals *redislock;
// Nativelock\MysqlBackend's sessions (native_lock.cpp); allocated on first use.
nativelock::php::native::MysqlSessions *native_mysql;
ZEND_END_MODULE_GLOBALS(nativelock)

ZEND_EXTERN_MODULE_GLOBALS(nativelock)
#define NATIVELOCK_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(nativelock, v)

#if defined(ZTS) && defined(COMPILE_DL_NATIVELOCK)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

// Per-class hooks called by the module file. Each class file defines its own.
void nativelock_filelock_minit(int module_number);
void nativelock_filelock_rinit();
void nativelock_filelock_rshutdown();
void nativelock_filelock_minfo();
void nativelock_redislock_minit(int module_number);
void nativelock_redislock_rshutdown();
// Forgets the request's setRedis() and shutdown notes (also after RSHUTDOWN: user code that
// ran later may have called setRedis()).
void nativelock_redislock_forget_settings();
void nativelock_redislock_gshutdown(zend_nativelock_globals *globals);
void nativelock_redislock_minfo();
void nativelock_sharedlock_minit(int module_number);
void nativelock_sharedlock_rshutdown();
void nativelock_sharedlock_post_deactivate();
void nativelock_sharedlock_gshutdown(zend_nativelock_globals *globals);
void nativelock_sharedlock_minfo();

namespace nativelock::php {
// nativelock.pool_idle_timeout as the pools take it (checked when set: no overflow here).
std::chrono::steady_clock::duration pool_idle_timeout();
// A phpinfo() row for one pool: its size, what it opened and closed as idle, the idle timeout.
void print_pool_row(const char *label, std::size_t open, std::size_t opened,
                    std::size_t closed_idle);
}  // namespace nativelock::php

#endif
