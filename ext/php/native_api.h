// The native API (namespace Nativelock, stubs/native.stub.php): what its two files share.
//
//   native_backend.cpp  Backend, RedisBackend, FileBackend, MysqlBackend: where locks live
//   native_lock.cpp     Lock: one key and one token on a backend; request-end release, fork
//
// Both are clients of the same core as the seed classes: redis/lock (plain format, the
// gist's and Laravel's), redis/symfony_format, file/lock_file, mysql/protocol.
#pragma once

#include "php_nativelock.h"

#include <memory>
#include <string>

#include "exceptions.h"
#include "mysql/native_session.hpp"
#include "redis/params.hpp"

namespace nativelock::php::native {

extern zend_class_entry *backend_ce;
extern zend_class_entry *redis_backend_ce;
extern zend_class_entry *file_backend_ce;
extern zend_class_entry *mysql_backend_ce;
extern zend_class_entry *lock_ce;
extern zend_class_entry *lock_exception_ce;
extern zend_class_entry *not_supported_exception_ce;

enum class BackendKind { None, RedisPlain, RedisSymfony, File, Mysql };

// A MySQL session MysqlBackend locks live on (native_lock.cpp): one of nativelock's own, or the
// application's \PDO.
struct PooledSession;

// What a backend object is; copied into every Lock made on it (a Lock keeps no pointer into
// the backend's state, only a reference to the object for getBackend()).
struct BackendConfig {
    BackendKind kind = BackendKind::None;
    std::shared_ptr<const redis::ConnectionParams> redis;
    std::string directory;                              // FileBackend, with a trailing '/'
    std::shared_ptr<const mysql::ConnectParams> mysql;  // MysqlBackend on sessions of its own
    std::shared_ptr<PooledSession> mysql_pdo;           // … or on the application's \PDO
    std::string table;                                  // MysqlBackend
};

// The configuration of a constructed backend object, or nullptr with an Error thrown.
const BackendConfig *backend_config(zend_object *backend);

// The PHP exception for a core error: ValueError for bad arguments (exceptions.h), else
// Nativelock\LockException.
// Through an application's PDO a PHP throwable (a signal handler's) may be pending instead: that
// one is thrown.
bool throw_error(const PendingError &error, const char *context) noexcept;

// After a statement through an application's PDO: throws what a signal handler threw inside
// its calls, if anything (and drops a PDOException kept for an error nobody throws). Returns
// whether it threw.
bool rethrow_deferred() noexcept;

// The session of a \PDO (one per PDO object in this process, shared by every backend on it:
// GET_LOCK is re-entrant per session, so they must know what it holds).
std::shared_ptr<PooledSession> mysql_pdo_session(zend_object *pdo);

// MysqlBackend::forceRelease(): frees `key` whoever holds it (mysql::Protocol::force_release).
// Throws the core's errors.
bool mysql_force_release(const BackendConfig &config, const std::string &key);

}  // namespace nativelock::php::native

void nativelock_native_minit(int module_number);
void nativelock_native_rshutdown();
void nativelock_native_gshutdown(zend_nativelock_globals *globals);
