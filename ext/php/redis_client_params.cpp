// setRedis(): what a Credis_Client, a phpredis \\Redis, a Predis\\Client or a URI says about the
// server, read into plain parameters. Reading calls PHP (getters, __get, parse_url) and keeps
// what it reads in zend_strings, before any C++ object exists; the parsing and validation of
// those parameters is the core's (ext/core/redis/params.*), run afterwards.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "redislock_object.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/standard/url.h"
}

#include <cmath>
#include <optional>
#include <string>
#include <utility>

namespace nativelock::php::redislock {

namespace {

// Raw parameters gathered from PHP values before any C++ object exists. Owned strings are
// released by raw_free().
struct RawParams {
    zend_string *uri = nullptr;
    zend_string *host = nullptr;
    zend_string *path = nullptr;
    zend_string *scheme = nullptr;
    zend_string *username = nullptr;
    zend_string *password = nullptr;
    zend_string *persistent = nullptr;
    zend_long port = 6379;
    zend_long database = 0;
    double connect_timeout = 0;
    double read_timeout = 0;
    // parse_url($uri), taken before any C++ object exists (it allocates on the Zend heap);
    // nullptr where parse_url() returns false.
    php_url *url = nullptr;
    bool url_has_port = false;
};

void raw_free(RawParams &raw) {
    for (zend_string **s : {&raw.uri, &raw.host, &raw.path, &raw.scheme, &raw.username,
                            &raw.password, &raw.persistent}) {
        if (*s) zend_string_release(*s);
        *s = nullptr;
    }
    if (raw.url) php_url_free(raw.url);
    raw.url = nullptr;
}

bool class_is(zend_class_entry *ce, const char *lcname) {
    size_t len = strlen(lcname);
    for (zend_class_entry *c = ce; c; c = c->parent) {
        if (ZSTR_LEN(c->name) == len &&
            zend_binary_strcasecmp(ZSTR_VAL(c->name), len, lcname, len) == 0) {
            return true;
        }
    }
    if (ce->ce_flags & ZEND_ACC_LINKED) {
        for (uint32_t i = 0; i < ce->num_interfaces; ++i) {
            zend_class_entry *iface = ce->interfaces[i];
            if (ZSTR_LEN(iface->name) == len &&
                zend_binary_strcasecmp(ZSTR_VAL(iface->name), len, lcname, len) == 0) {
                return true;
            }
        }
    }
    return false;
}

// A string copy of a scalar zval (nullptr for null/false/empty-ish values that mean "unset").
zend_string *scalar_string(zval *zv) {
    ZVAL_DEREF(zv);
    if (Z_TYPE_P(zv) == IS_NULL || Z_TYPE_P(zv) == IS_FALSE) return nullptr;
    if (Z_TYPE_P(zv) == IS_STRING) return zend_string_copy(Z_STR_P(zv));
    if (Z_TYPE_P(zv) == IS_LONG || Z_TYPE_P(zv) == IS_DOUBLE) return zval_get_string(zv);
    return nullptr;
}

// An integer setting of a client object (`what`: "port", "database"). Strings and floats
// must hold a whole number in range: converting NAN, INF, 2**64 or "abc" would give 0 or a
// wrapped value, a lock silently kept on another server or database. False for anything else
// (null: unset), and with a ValueError pending for a number that is not one.
bool scalar_long(zval *zv, zend_long *out, const char *what) {
    ZVAL_DEREF(zv);
    if (Z_TYPE_P(zv) == IS_LONG) {
        *out = Z_LVAL_P(zv);
        return true;
    }
    double d = 0;
    zend_uchar type = 0;
    if (Z_TYPE_P(zv) == IS_DOUBLE) {
        d = Z_DVAL_P(zv);
        type = IS_DOUBLE;
    } else if (Z_TYPE_P(zv) == IS_STRING) {
        type = is_numeric_string(Z_STRVAL_P(zv), Z_STRLEN_P(zv), out, &d, false);
        if (type == IS_LONG) return true;
    } else {
        return false;
    }
    // Range before conversion: 2**53 is far past any port or database number.
    constexpr double kLimit = 9007199254740992.0;
    if (type == IS_DOUBLE && d == std::trunc(d) && d > -kLimit && d < kLimit) {
        *out = static_cast<zend_long>(d);
        return true;
    }
    zend_value_error("RedisLock::setRedis(): the client's %s must be a whole number", what);
    return false;
}

double scalar_double(zval *zv) {
    ZVAL_DEREF(zv);
    if (Z_TYPE_P(zv) == IS_LONG || Z_TYPE_P(zv) == IS_DOUBLE || Z_TYPE_P(zv) == IS_STRING) {
        return zval_get_double(zv);
    }
    return 0;
}

// Reads a property as the declaring class would (protected ones included), without
// invoking magic methods when the property exists; nullptr if it does not.
zval *read_prop(zend_object *object, zend_class_entry *scope, const char *name, zval *rv) {
    zend_string *key = zend_string_init(name, strlen(name), 0);
    zend_class_entry *old_scope = EG(fake_scope);
    EG(fake_scope) = scope;
    zval *value = object->handlers->read_property(object, key, BP_VAR_IS, nullptr, rv);
    EG(fake_scope) = old_scope;
    zend_string_release(key);
    if (EG(exception)) return nullptr;
    if (!value || Z_TYPE_P(value) == IS_UNDEF) return nullptr;
    return value;
}

// Calls a public method without arguments; false if it does not exist or threw.
bool call_getter(zend_object *object, const char *name, zval *retval) {
    zend_string *method = zend_string_init(name, strlen(name), 0);
    zend_result ok = zend_call_method_if_exists(object, method, retval, 0, nullptr);
    zend_string_release(method);
    if (EG(exception)) {
        zval_ptr_dtor(retval);
        ZVAL_UNDEF(retval);
        return false;
    }
    return ok == SUCCESS;
}

// Value of a Credis_Client field: the protected property, natively; the getter if the
// property is missing.
bool credis_field(zend_object *object, zend_class_entry *scope, const char *prop,
                  const char *getter, zval *out) {
    zval rv;
    ZVAL_UNDEF(&rv);
    zval *value = read_prop(object, scope, prop, &rv);
    if (EG(exception)) return false;
    if (value) {
        ZVAL_COPY_DEREF(out, value);
        zval_ptr_dtor(&rv);
        return true;
    }
    ZVAL_UNDEF(out);
    if (getter && call_getter(object, getter, out)) return true;
    if (EG(exception)) return false;
    ZVAL_NULL(out);
    return true;
}

zend_class_entry *declaring_class(zend_class_entry *ce, const char *lcname) {
    size_t len = strlen(lcname);
    for (zend_class_entry *c = ce; c; c = c->parent) {
        if (ZSTR_LEN(c->name) == len &&
            zend_binary_strcasecmp(ZSTR_VAL(c->name), len, lcname, len) == 0) {
            return c;
        }
    }
    return ce;
}

// Credis and phpredis give a unix socket's path as the host.
void move_socket_path_out_of_host(RawParams &raw) {
    if (raw.host && ZSTR_VAL(raw.host)[0] == '/') {
        raw.path = raw.host;
        raw.host = nullptr;
    }
}

// A client the extension cannot read: a ValueError, unless reading it already threw. Returns
// false.
bool unsupported_client(const char *message) {
    if (!EG(exception)) zend_value_error("%s", message);
    return false;
}

bool gather_credis(zend_object *object, RawParams &raw) {
    zend_class_entry *scope = declaring_class(object->ce, "credis_client");
    // Reads one field and hands it to `store`; false (stop) if reading threw.
    auto read = [&](const char *prop, const char *getter, auto store) {
        zval v;
        if (!credis_field(object, scope, prop, getter, &v)) return false;
        store(&v);
        zval_ptr_dtor(&v);
        return !EG(exception);
    };
    bool ok =
        read("host", "getHost", [&](zval *v) { raw.host = scalar_string(v); }) &&
        read("port", "getPort",
             [&](zval *v) {
                 // Credis keeps port null for a unix socket.
                 if (!scalar_long(v, &raw.port, "port")) raw.port = -1;
             }) &&
        read("scheme", nullptr, [&](zval *v) { raw.scheme = scalar_string(v); }) &&
        read("selectedDb", "getSelectedDb",
             [&](zval *v) { scalar_long(v, &raw.database, "database"); }) &&
        read("persistent", "getPersistence", [&](zval *v) { raw.persistent = scalar_string(v); }) &&
        read("authUsername", nullptr, [&](zval *v) { raw.username = scalar_string(v); }) &&
        read("authPassword", nullptr, [&](zval *v) { raw.password = scalar_string(v); }) &&
        read("timeout", nullptr, [&](zval *v) { raw.connect_timeout = scalar_double(v); }) &&
        read("readTimeout", nullptr, [&](zval *v) { raw.read_timeout = scalar_double(v); });
    if (!ok) return false;
    move_socket_path_out_of_host(raw);
    return true;
}

bool gather_phpredis(zend_object *object, RawParams &raw) {
    zval v;
    ZVAL_UNDEF(&v);
    if (!call_getter(object, "getHost", &v) || Z_TYPE(v) != IS_STRING) {
        zval_ptr_dtor(&v);
        return unsupported_client(
            "RedisLock::setRedis(): the \\Redis object is not connected (call connect() first, "
            "or pass a redis:// URI)");
    }
    raw.host = zend_string_copy(Z_STR(v));
    zval_ptr_dtor(&v);
    move_socket_path_out_of_host(raw);
    if (call_getter(object, "getPort", &v)) scalar_long(&v, &raw.port, "port");
    zval_ptr_dtor(&v);
    ZVAL_UNDEF(&v);
    if (!EG(exception) && call_getter(object, "getDbNum", &v))
        scalar_long(&v, &raw.database, "database");
    zval_ptr_dtor(&v);
    ZVAL_UNDEF(&v);
    if (call_getter(object, "getAuth", &v)) {
        if (Z_TYPE(v) == IS_ARRAY) {
            zval *user = zend_hash_index_find(Z_ARRVAL(v), 0);
            zval *pass = zend_hash_index_find(Z_ARRVAL(v), 1);
            if (user && pass) {
                raw.username = scalar_string(user);
                raw.password = scalar_string(pass);
            } else if (user) {
                raw.password = scalar_string(user);
            }
        } else {
            raw.password = scalar_string(&v);
        }
    }
    zval_ptr_dtor(&v);
    ZVAL_UNDEF(&v);
    if (call_getter(object, "getTimeout", &v)) raw.connect_timeout = scalar_double(&v);
    zval_ptr_dtor(&v);
    ZVAL_UNDEF(&v);
    if (call_getter(object, "getReadTimeout", &v)) raw.read_timeout = scalar_double(&v);
    zval_ptr_dtor(&v);
    ZVAL_UNDEF(&v);
    if (call_getter(object, "getPersistentID", &v)) raw.persistent = scalar_string(&v);
    zval_ptr_dtor(&v);
    return !EG(exception);
}

bool predis_field(zend_object *parameters, const char *name, zval *out) {
    zval rv;
    ZVAL_UNDEF(&rv);
    zval *value = zend_read_property(parameters->ce, parameters, name, strlen(name), 1, &rv);
    if (EG(exception)) return false;
    if (value && Z_TYPE_P(value) != IS_UNDEF) {
        ZVAL_COPY_DEREF(out, value);
    } else {
        ZVAL_NULL(out);
    }
    zval_ptr_dtor(&rv);
    return true;
}

bool gather_predis(zend_object *object, RawParams &raw) {
    zval connection, parameters;
    ZVAL_UNDEF(&connection);
    ZVAL_UNDEF(&parameters);
    if (!call_getter(object, "getConnection", &connection) || Z_TYPE(connection) != IS_OBJECT ||
        !call_getter(Z_OBJ(connection), "getParameters", &parameters) ||
        Z_TYPE(parameters) != IS_OBJECT) {
        zval_ptr_dtor(&connection);
        zval_ptr_dtor(&parameters);
        return unsupported_client(
            "RedisLock::setRedis(): only a single-node Predis\\Client is supported "
            "(getConnection()->getParameters() is not available)");
    }
    zend_object *p = Z_OBJ(parameters);
    zval v;
    bool ok = predis_field(p, "scheme", &v);
    if (ok) raw.scheme = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "host", &v))) raw.host = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "port", &v)))
        scalar_long(&v, &raw.port, "port"), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "path", &v))) raw.path = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "database", &v)))
        scalar_long(&v, &raw.database, "database"), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "username", &v)))
        raw.username = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "password", &v)))
        raw.password = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "timeout", &v)))
        raw.connect_timeout = scalar_double(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "read_write_timeout", &v)))
        raw.read_timeout = scalar_double(&v), zval_ptr_dtor(&v);
    zval_ptr_dtor(&connection);
    zval_ptr_dtor(&parameters);
    if (ok && raw.scheme && zend_string_equals_literal_ci(raw.scheme, "unix")) {
        if (!raw.path) {
            raw.path = raw.host;
            raw.host = nullptr;
        }
    } else if (raw.path) {
        zend_string_release(raw.path);
        raw.path = nullptr;
    }
    return ok;
}

std::optional<std::string> optional_string(const zend_string *s) {
    if (!s) return std::nullopt;
    return std::string(ZSTR_VAL(s), ZSTR_LEN(s));
}

// The C++ phase, once PHP is done: the core parses and validates. Throws InvalidArgument.
std::shared_ptr<const redis::ConnectionParams> build_params(const RawParams &raw) {
    redis::ConnectionParams p;
    if (raw.uri) {
        std::optional<redis::UriParts> url;
        if (raw.url) {
            url.emplace();
            url->scheme = optional_string(raw.url->scheme);
            url->user = optional_string(raw.url->user);
            url->pass = optional_string(raw.url->pass);
            url->host = optional_string(raw.url->host);
            url->path = optional_string(raw.url->path);
            url->query = optional_string(raw.url->query);
            url->fragment = optional_string(raw.url->fragment);
            if (raw.url_has_port) url->port = raw.url->port;
        }
        p = redis::parse_uri(std::string_view(ZSTR_VAL(raw.uri), ZSTR_LEN(raw.uri)), url);
    } else {
        redis::ClientSettings client;
        client.scheme = optional_string(raw.scheme);
        client.host = optional_string(raw.host);
        client.unix_path = optional_string(raw.path);
        client.port = raw.port;
        client.database = raw.database;
        client.username = optional_string(raw.username);
        client.password = optional_string(raw.password);
        client.persistent_id = optional_string(raw.persistent);
        p = redis::params_from_client(client);
    }
    redis::apply_timeouts(p, raw.connect_timeout, raw.read_timeout,
                          NATIVELOCK_G(redis_connect_timeout), NATIVELOCK_G(redis_read_timeout));
    return std::make_shared<const redis::ConnectionParams>(std::move(p));
}

}  // namespace

// Parses a client object or URI into connection parameters. Returns nullptr with a PHP
// exception pending on failure; `what` names the argument in the TypeError.
std::shared_ptr<const redis::ConnectionParams> params_from_zval(zval *redis, const char *what) {
    RawParams raw;
    ZVAL_DEREF(redis);
    bool ok = true;
    if (Z_TYPE_P(redis) == IS_STRING) {
        raw.uri = zend_string_copy(Z_STR_P(redis));
        raw.url = php_url_parse_ex2(ZSTR_VAL(raw.uri), ZSTR_LEN(raw.uri), &raw.url_has_port);
    } else if (Z_TYPE_P(redis) == IS_OBJECT && class_is(Z_OBJCE_P(redis), "credis_client")) {
        ok = gather_credis(Z_OBJ_P(redis), raw);
    } else if (Z_TYPE_P(redis) == IS_OBJECT && class_is(Z_OBJCE_P(redis), "redis")) {
        ok = gather_phpredis(Z_OBJ_P(redis), raw);
    } else if (Z_TYPE_P(redis) == IS_OBJECT &&
               (class_is(Z_OBJCE_P(redis), "predis\\client") ||
                class_is(Z_OBJCE_P(redis), "predis\\clientinterface"))) {
        ok = gather_predis(Z_OBJ_P(redis), raw);
    } else {
        zend_type_error(
            "%s must be of type Credis_Client|Redis|Predis\\Client|string "
            "(redis://[user:pass@]host[:port][/db], tcp://host:port, unix:///path or /path), %s "
            "given",
            what, zend_zval_type_name(redis));
        ok = false;
    }
    if (!ok || EG(exception)) {
        raw_free(raw);
        return nullptr;
    }
    PendingError error;
    std::shared_ptr<const redis::ConnectionParams> params;
    try {
        params = build_params(raw);
    } catch (...) {
        capture_current_exception(error);
    }
    raw_free(raw);
    throw_error(error);
    if (EG(exception)) return nullptr;
    return params;
}

// Parses a client object or URI into the request's parameters. Returns false with a PHP
// exception pending on failure.
bool configure_from(zval *redis) {
    ZVAL_DEREF(redis);
    auto params = params_from_zval(redis, "RedisLock::setRedis(): Argument #1 ($redis)");
    if (!params) return false;
    RedisLockGlobals &globals = redislock_globals();
    globals.params = std::move(params);
    zend_object *previous = std::exchange(globals.source_object, nullptr);
    globals.source_uri.clear();
    if (Z_TYPE_P(redis) == IS_OBJECT) {
        globals.source_object = Z_OBJ_P(redis);
        GC_ADDREF(globals.source_object);
    } else {
        globals.source_uri.assign(Z_STRVAL_P(redis), Z_STRLEN_P(redis));
    }
    // Last: freeing the client given before may run its destructor (user code).
    if (previous) OBJ_RELEASE(previous);
    return !EG(exception);
}

void forget_source(bool release_object) {
    RedisLockGlobals *globals = NATIVELOCK_G(redislock);
    if (!globals) return;
    zend_object *object = std::exchange(globals->source_object, nullptr);
    // At request end the object store frees what nobody holds: only our reference is dropped,
    // so no destructor runs from here. After the store was freed there is nothing to drop.
    if (object && release_object) GC_DELREF(object);
    globals->source_uri.clear();
}

namespace {

bool is_source(const RedisLockGlobals &globals, const zval *stored) {
    if (Z_TYPE_P(stored) == IS_OBJECT) return Z_OBJ_P(stored) == globals.source_object;
    return !globals.source_object && Z_TYPE_P(stored) == IS_STRING &&
           globals.source_uri == std::string_view(Z_STRVAL_P(stored), Z_STRLEN_P(stored));
}

}  // namespace

// ensureRedisIsSet(): the parameters of this request, parsed from RedisLock::$redis whenever
// it holds something other than what they came from (the gist's setRedis(), and subclasses
// that override it, only assign the property). Throws the original's plain Exception when the
// property is empty, as the original does, whatever was set before.
bool ensure_redis() {
    zval *stored = zend_read_static_property(lock_ce, "redis", sizeof("redis") - 1, 1);
    if (stored) ZVAL_DEREF(stored);
    if (!stored || !zend_is_true(stored)) {
        zend_throw_exception(zend_ce_exception, "You must call setRedis() before using redis locks",
                             0);
        return false;
    }
    RedisLockGlobals *globals = NATIVELOCK_G(redislock);
    if (globals && globals->params && is_source(*globals, stored)) return true;
    // A copy of our own: reading a client calls its getters (user code), which may assign the
    // property and free the object in it while it is being read.
    zval client;
    ZVAL_COPY(&client, stored);
    const bool ok = configure_from(&client);
    zval_ptr_dtor(&client);
    return ok && !EG(exception);
}

}  // namespace nativelock::php::redislock
