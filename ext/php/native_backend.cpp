// Nativelock\Backend and its three final classes: where a Nativelock\Lock lives. A backend
// object only holds validated configuration; connections come from the per-process pools the
// seed classes use too (opened on first use, never in MINIT, renewed after fork).
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "native_api.h"

extern "C" {
#include "Zend/zend_attributes.h"
#include "Zend/zend_exceptions.h"
#include "main/fopen_wrappers.h"
#include "ext/pdo/php_pdo_driver.h"
#include "ext/spl/spl_exceptions.h"
}

#include <string>
#include <string_view>

#include "common/error.hpp"
#include "native_object.h"
#include "pdo_session.h"
#include "mysql/protocol.hpp"
#include "redis/lock.hpp"
#include "redis/symfony_format.hpp"
#include "redislock_object.h"

#include "native_arginfo.h"

namespace nativelock::php::native {

zend_class_entry *backend_ce;
zend_class_entry *redis_backend_ce;
zend_class_entry *file_backend_ce;
zend_class_entry *mysql_backend_ce;
zend_class_entry *lock_exception_ce;
zend_class_entry *not_supported_exception_ce;

namespace {

struct BackendState {
    BackendConfig config;
};
using BackendObject = NativeObject<BackendState>;
zend_object_handlers backend_handlers;

zend_object *create_backend(zend_class_entry *ce) {
    return BackendObject::create(ce, &backend_handlers);
}

void free_backend(zend_object *object) {
    BackendObject::destroy(object);
}

BackendConfig &config_of(zend_object *object) {
    return BackendObject::state_of(object).config;
}

// A redis connection whose use may outlive this call: taken from the shared pool.
redis::Connection &redis_connection(const BackendConfig &config) {
    return redislock_globals().pool.get(*config.redis);
}

}  // namespace

const BackendConfig *backend_config(zend_object *backend) {
    // Only our own classes have our layout: a userland subclass of Backend is not a backend.
    if (backend->ce != redis_backend_ce && backend->ce != file_backend_ce &&
        backend->ce != mysql_backend_ce) {
        zend_type_error(
            "Nativelock backends are RedisBackend, FileBackend or MysqlBackend, %s given",
            ZSTR_VAL(backend->ce->name));
        return nullptr;
    }
    const BackendConfig &config = config_of(backend);
    if (config.kind == BackendKind::None) {
        zend_throw_error(nullptr, "%s object is not initialized: its constructor was not called",
                         ZSTR_VAL(backend->ce->name));
        return nullptr;
    }
    return &config;
}

bool throw_error(const PendingError &error, const char *context) noexcept {
    if (rethrow_deferred()) return true;
    return throw_pending_error_as(error, lock_exception_ce, context);
}

bool rethrow_deferred() noexcept {
    sharedlock::drop_previous();
    return sharedlock::rethrow_deferred_throwable();
}

}  // namespace nativelock::php::native

using namespace nativelock::php::native;
using nativelock::php::PendingError;

ZEND_METHOD(Nativelock_Backend, getName) {
    ZEND_PARSE_PARAMETERS_NONE();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    switch (config->kind) {
        case BackendKind::RedisPlain:
            RETURN_STRING("redis:plain");
        case BackendKind::RedisSymfony:
            RETURN_STRING("redis:symfony");
        case BackendKind::File:
            RETURN_STRING("file");
        case BackendKind::Mysql:
            RETURN_STRING("mysql");
        case BackendKind::None:
            break;
    }
    RETURN_THROWS();
}

ZEND_METHOD(Nativelock_Backend, supportsShared) {
    ZEND_PARSE_PARAMETERS_NONE();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    RETURN_BOOL(config->kind == BackendKind::RedisSymfony);
}

ZEND_METHOD(Nativelock_RedisBackend, __construct) {
    zval *connection;
    zend_string *format = nullptr;
    ZEND_PARSE_PARAMETERS_START(1, 2)
    Z_PARAM_ZVAL(connection)
    Z_PARAM_OPTIONAL
    Z_PARAM_STR(format)
    ZEND_PARSE_PARAMETERS_END();

    BackendKind kind = BackendKind::RedisPlain;
    if (format && zend_string_equals_literal(format, "symfony")) {
        kind = BackendKind::RedisSymfony;
    } else if (format && !zend_string_equals_literal(format, "plain")) {
        zend_argument_value_error(2,
                                  "must be RedisBackend::FORMAT_PLAIN (\"plain\") or "
                                  "RedisBackend::FORMAT_SYMFONY (\"symfony\")");
        RETURN_THROWS();
    }
    // The client's getters are user code: nothing of ours is live while they run.
    auto params = nativelock::php::redislock::params_from_zval(
        connection, "Nativelock\\RedisBackend::__construct(): Argument #1 ($connection)");
    if (!params) RETURN_THROWS();
    BackendConfig &config = config_of(Z_OBJ_P(ZEND_THIS));
    config.kind = kind;
    config.redis = std::move(params);
}

ZEND_METHOD(Nativelock_RedisBackend, getFormat) {
    ZEND_PARSE_PARAMETERS_NONE();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    if (config->kind == BackendKind::RedisSymfony) RETURN_STRING("symfony");
    RETURN_STRING("plain");
}

ZEND_METHOD(Nativelock_RedisBackend, currentOwner) {
    zend_string *key;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_STR(key)
    ZEND_PARSE_PARAMETERS_END();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    std::string_view k(ZSTR_VAL(key), ZSTR_LEN(key));
    std::optional<std::string> owner;
    NL_TRY
    auto &conn = redis_connection(*config);
    if (config->kind == BackendKind::RedisSymfony) {
        owner = nativelock::redis::symfony::writer(conn, k);
    } else {
        owner = nativelock::redis::current_value(conn, k);
    }
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\RedisBackend::currentOwner()")
    if (!owner) RETURN_NULL();
    RETURN_STRINGL(owner->data(), owner->size());
}

ZEND_METHOD(Nativelock_RedisBackend, forceRelease) {
    zend_string *key;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_STR(key)
    ZEND_PARSE_PARAMETERS_END();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    std::string_view k(ZSTR_VAL(key), ZSTR_LEN(key));
    bool removed = false;
    NL_TRY
    auto &conn = redis_connection(*config);
    if (config->kind == BackendKind::RedisSymfony) {
        removed = nativelock::redis::symfony::force_remove(conn, k);
    } else {
        removed = nativelock::redis::force_release(conn, k);
    }
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\RedisBackend::forceRelease()")
    RETURN_BOOL(removed);
}

ZEND_METHOD(Nativelock_FileBackend, __construct) {
    zend_string *directory;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_PATH_STR(directory)
    ZEND_PARSE_PARAMETERS_END();
    if (ZSTR_LEN(directory) == 0) {
        zend_argument_value_error(1, "must be a directory, \"\" given");
        RETURN_THROWS();
    }
    // A relative directory is made absolute now (PHP's working directory, as fopen() would use
    // it): a lock's later checks and its release must find its file after any chdir().
    char absolute[MAXPATHLEN];
    const char *given = ZSTR_VAL(directory);
    if (given[0] != '/' && !(given = expand_filepath(given, absolute))) {
        zend_argument_value_error(1, "must be a directory path that can be made absolute");
        RETURN_THROWS();
    }
    BackendConfig &config = config_of(Z_OBJ_P(ZEND_THIS));
    NL_TRY
    std::string dir(given);
    // Lock files are "<directory>/<mapped name>.lock", as Filelock::$lockpath . name makes them.
    if (dir.back() != '/') dir.push_back('/');
    config.directory = std::move(dir);
    config.kind = BackendKind::File;
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\FileBackend::__construct()")
}

ZEND_METHOD(Nativelock_FileBackend, getDirectory) {
    ZEND_PARSE_PARAMETERS_NONE();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    RETURN_STRINGL(config->directory.data(), config->directory.size());
}

ZEND_METHOD(Nativelock_MysqlBackend, __construct) {
    zend_object *pdo = nullptr;
    zend_string *dsn = nullptr;
    zend_string *username = nullptr;
    zend_string *password = nullptr;
    zend_string *table = nullptr;
    // pdo is an optional dependency: without it only a DSN can be given.
    auto *pdo_ce =
        static_cast<zend_class_entry *>(zend_hash_str_find_ptr(CG(class_table), "pdo", 3));
    ZEND_PARSE_PARAMETERS_START(1, 4)
    if (pdo_ce) {
        Z_PARAM_OBJ_OF_CLASS_OR_STR(pdo, pdo_ce, dsn)
    } else {
        Z_PARAM_STR(dsn)
    }
    Z_PARAM_OPTIONAL
    Z_PARAM_STR_OR_NULL(username)
    Z_PARAM_STR_OR_NULL(password)
    Z_PARAM_STR(table)
    ZEND_PARSE_PARAMETERS_END();
    if (pdo) {
        if (!nativelock::php::sharedlock::is_mysql_pdo(pdo)) {
            zend_argument_value_error(1, "must be a PDO connected with the mysql driver");
            RETURN_THROWS();
        }
        if (username || password) {
            zend_argument_value_error(username ? 2 : 3,
                                      "must be null when a PDO is given (it is connected already)");
            RETURN_THROWS();
        }
        if (php_pdo_dbh_fetch_inner(pdo)->is_persistent) {
            // Its session outlives the request (a lock left by a failed release with it), and a
            // forked child's end closes it under the parent.
            zend_argument_value_error(1, "must not be a persistent PDO (PDO::ATTR_PERSISTENT)");
            RETURN_THROWS();
        }
    } else {
        std::string_view text(ZSTR_VAL(dsn), ZSTR_LEN(dsn));
        if (text.substr(0, 6) != "mysql:") {
            zend_argument_value_error(1, "must be a PDO MySQL DSN (\"mysql:host=…;dbname=…\")");
            RETURN_THROWS();
        }
    }
    // Spliced into statements, quoted: a backtick would end the quoting, and a '?' would read as
    // a placeholder to PDO's parser and to the request-end path.
    if (table && (ZSTR_LEN(table) == 0 || ZSTR_LEN(table) > 64 ||
                  strcspn(ZSTR_VAL(table), "`?") != ZSTR_LEN(table) ||
                  memchr(ZSTR_VAL(table), '\0', ZSTR_LEN(table)))) {
        zend_argument_value_error(4, "must be a table name of 1 to 64 characters without ` or ?");
        RETURN_THROWS();
    }
    BackendConfig &config = config_of(Z_OBJ_P(ZEND_THIS));
    if (config.kind != BackendKind::None) {
        zend_throw_error(nullptr, "Nativelock\\MysqlBackend::__construct() cannot be called twice");
        RETURN_THROWS();
    }
    NL_TRY
    if (pdo) {
        // Locks live in the application's session (its transactions see them; a take-over after
        // the TTL ends that session, as it ends a hung holder's).
        config.mysql_pdo = mysql_pdo_session(pdo);
    } else {
        nativelock::mysql::ConnectParams params;
        params.apply_additional_dsn(std::string_view(ZSTR_VAL(dsn), ZSTR_LEN(dsn)).substr(6));
        if (params.host.empty() && params.unix_socket.empty()) params.host = "localhost";
        if (username) params.user.assign(ZSTR_VAL(username), ZSTR_LEN(username));
        if (password) params.password.assign(ZSTR_VAL(password), ZSTR_LEN(password));
        params.connect_timeout = NATIVELOCK_G(mysql_connect_timeout);
        params.read_timeout = NATIVELOCK_G(mysql_read_timeout);
        config.mysql = std::make_shared<const nativelock::mysql::ConnectParams>(std::move(params));
    }
    config.table = table ? std::string(ZSTR_VAL(table), ZSTR_LEN(table)) : "shared_locks";
    config.kind = BackendKind::Mysql;
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\MysqlBackend::__construct()")
}

ZEND_METHOD(Nativelock_MysqlBackend, getTable) {
    ZEND_PARSE_PARAMETERS_NONE();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    RETURN_STRINGL(config->table.data(), config->table.size());
}

ZEND_METHOD(Nativelock_MysqlBackend, forceRelease) {
    zend_string *key;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_STR(key)
    ZEND_PARSE_PARAMETERS_END();
    const BackendConfig *config = backend_config(Z_OBJ_P(ZEND_THIS));
    if (!config) RETURN_THROWS();
    if (ZSTR_LEN(key) == 0 ||
        nativelock::mysql::name_length(std::string(ZSTR_VAL(key), ZSTR_LEN(key))) >
            nativelock::mysql::kMaxNameChars) {
        zend_argument_value_error(1, "must be a lock name of 1 to %zu characters",
                                  nativelock::mysql::kMaxNameChars);
        RETURN_THROWS();
    }
    bool freed = false;
    NL_TRY
    freed = mysql_force_release(*config, std::string(ZSTR_VAL(key), ZSTR_LEN(key)));
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\MysqlBackend::forceRelease()")
    if (rethrow_deferred()) RETURN_THROWS();
    RETURN_BOOL(freed);
}

void nativelock_native_lock_minit();

void nativelock_native_minit(int module_number) {
    (void)module_number;
    lock_exception_ce = register_class_Nativelock_LockException(spl_ce_RuntimeException);
    not_supported_exception_ce = register_class_Nativelock_NotSupportedException(lock_exception_ce);
    backend_ce = register_class_Nativelock_Backend();
    backend_ce->create_object = create_backend;
    BackendObject::init_handlers(backend_handlers, free_backend);
    redis_backend_ce = register_class_Nativelock_RedisBackend(backend_ce);
    file_backend_ce = register_class_Nativelock_FileBackend(backend_ce);
    mysql_backend_ce = register_class_Nativelock_MysqlBackend(backend_ce);
    // __construct(…, #[\SensitiveParameter] $password, …): traces never show it. (Set here:
    // gen_stub.php's code for it does not compile as C++.)
    zend_add_parameter_attribute(
        static_cast<zend_function *>(zend_hash_str_find_ptr(
            &mysql_backend_ce->function_table, "__construct", sizeof("__construct") - 1)),
        2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
    redis_backend_ce->create_object = create_backend;
    file_backend_ce->create_object = create_backend;
    mysql_backend_ce->create_object = create_backend;
    lock_ce = register_class_Nativelock_Lock();
    nativelock_native_lock_minit();
}
