// RedisLock: the PHP face of nativelock::redis (ext/core/redis).
//
// Calls into PHP userland (an overriding key(), Credis/Predis getters, __toString of a name,
// subclass constructors) happen before the core is entered or after it returned, never while
// C++ objects with destructors are alive on the stack.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php_nativelock.h"

extern "C" {
#include "Zend/zend_attributes.h"
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"
#include "ext/standard/info.h"
#include "ext/standard/url.h"
}

#include <hiredis/hiredis.h>
#include <unistd.h>

#include <cmath>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/random.hpp"
#include "common/process.hpp"
#include "exceptions.h"
#include "interrupts.h"
#include "redis/connection.hpp"
#include "redis/lock.hpp"
#include "redis/params.hpp"
#include "redis/pool.hpp"
#include "request_registry.h"

#include "redislock_arginfo.h"

namespace {

using nativelock::php::RegistryEntry;
using nativelock::redis::ConnectionParams;

zend_class_entry *redislock_ce;
zend_class_entry *fail_exception_ce;
zend_class_entry *connection_exception_ce;
zend_object_handlers redislock_handlers;

// The original's FAIL_BLOCK: tries at 0, 1, 3, 7 and 15 s.
constexpr double kDefaultBlockBudget = 15.0;

enum class Fail { Except, Return, Block };

// Per thread (one per process under NTS): the connection pool, kept across requests, and the
// parameters setRedis() gave in this request. Allocated on first use, never in MINIT.
struct Shared {
    nativelock::redis::Pool pool;
    std::shared_ptr<const ConnectionParams> params;
    // Request-end release: endpoints that already failed to connect are not retried for
    // every other held lock.
    std::string failed_at_shutdown;
};
thread_local Shared *shared_state = nullptr;

Shared &shared() {
    if (!shared_state) shared_state = new Shared();
    return *shared_state;
}

struct LockState {
    std::string name;
    std::string value;
    long long timeout = 0;
    Fail fail = Fail::Except;
    bool constructed = false;
    // While held: where and under which key, and by which process.
    bool held = false;
    pid_t pid = 0;
    std::string key;
    std::shared_ptr<const ConnectionParams> params;
    // Linked (and holding a reference to the object) while held, so that a lock nobody
    // stores stays held until release(), releaseAllCurrentlyHeldLocks() or request end, like
    // the original; locks that are not held are not retained.
    RegistryEntry entry;
};

struct LockObject {
    LockState state;
    zend_object std;
};

LockObject *from_object(zend_object *object) {
    return reinterpret_cast<LockObject *>(reinterpret_cast<char *>(object) -
                                          XtOffsetOf(LockObject, std));
}

LockObject *from_entry(RegistryEntry *entry) {
    return reinterpret_cast<LockObject *>(reinterpret_cast<char *>(entry) -
                                          XtOffsetOf(LockObject, state.entry));
}

void release_at_request_end(RegistryEntry *entry) noexcept;

bool is_redislock_entry(const RegistryEntry *entry) {
    return entry->release == release_at_request_end;
}

// Native release of a held lock; no PHP involved. If the server cannot be asked, the
// exception propagates and the lock stays held (tracked) for a later attempt.
void native_release(LockState &state) {
    if (!state.held) return;
    if (state.pid != nativelock::process::current_pid()) {
        // Taken by the parent before fork(): the child never releases it.
        state.held = false;
        return;
    }
    auto &conn = shared().pool.get(*state.params);
    nativelock::redis::release(conn, state.key, state.value);
    state.held = false;
}

// Unlinks from the registry; returns whether the registry's reference must be dropped.
bool untrack(LockState &state) {
    if (!state.entry.linked) return false;
    nativelock::php::registry_remove(&state.entry);
    return true;
}

void release_at_request_end(RegistryEntry *entry) noexcept {
    LockObject *self = from_entry(entry);
    auto &state = self->state;
    try {
        if (state.held && state.pid == nativelock::process::current_pid() &&
            NATIVELOCK_G(auto_release)) {
            std::string endpoint = state.params->pool_key();
            if (shared().failed_at_shutdown != endpoint) {
                try {
                    native_release(state);
                } catch (const nativelock::ConnectionError &) {
                    shared().failed_at_shutdown = endpoint;
                }
            }
        }
    } catch (...) {
        // Nothing to report to at request end; the key expires at its TTL.
    }
    state.held = false;
    // The registry's reference. Released, not just decremented: the object store only calls
    // free_obj on objects still alive after RSHUTDOWN and never frees their memory (PHP shows
    // them as leaks; valgrind found them). No user destructor can run here: by RSHUTDOWN every
    // object is marked destructed (after __destruct calls, or by the fatal error handler).
    OBJ_RELEASE(&self->std);
}

void track(zend_object *object) {
    auto &state = from_object(object)->state;
    if (state.entry.linked) return;
    nativelock::php::registry_add(&state.entry);
    GC_ADDREF(object);
}

zend_object *create_object(zend_class_entry *ce) {
    auto *object = static_cast<LockObject *>(zend_object_alloc(sizeof(LockObject), ce));
    new (&object->state) LockState();
    object->state.entry.release = release_at_request_end;
    object->state.entry.phase = nativelock::php::kReleaseAtRequestShutdown;
    zend_object_std_init(&object->std, ce);
    object_properties_init(&object->std, ce);
    object->std.handlers = &redislock_handlers;
    return &object->std;
}

void free_object(zend_object *object) {
    auto *self = from_object(object);
    if (untrack(self->state)) {
        // Only reachable while the store is torn down; the reference is moot.
    }
    if (self->state.held && NATIVELOCK_G(auto_release)) {
        try {
            native_release(self->state);
        } catch (...) {
        }
    }
    self->state.~LockState();
    zend_object_std_dtor(object);
}

// Slots of the declared properties, for direct writes on plain RedisLock objects (subclasses
// may redeclare them with types, so they go through the regular property API).
enum PropertySlot {
    kPropName,
    kPropValue,
    kPropFailBehavior,
    kPropTimeout,
    kPropNeedsRelease,
    kPropCount
};
const char *const kPropertyNames[kPropCount] = {"name", "value", "failBehavior", "timeout",
                                                "needsRelease"};
uint32_t property_offsets[kPropCount];

void write_property(zend_object *object, PropertySlot slot, zval *value) {
    if (object->ce == redislock_ce) {
        zval *target = OBJ_PROP(object, property_offsets[slot]);
        zval old;
        ZVAL_COPY_VALUE(&old, target);
        ZVAL_COPY(target, value);
        zval_ptr_dtor(&old);
        return;
    }
    zend_update_property(redislock_ce, object, kPropertyNames[slot], strlen(kPropertyNames[slot]),
                         value);
}

void set_needs_release(zend_object *object, bool value) {
    zval v;
    ZVAL_BOOL(&v, value);
    write_property(object, kPropNeedsRelease, &v);
}

// ---- exceptions --------------------------------------------------------------------------

// What a C++ exception becomes in PHP, captured inside the catch block and thrown after it
// (constructing a PHP exception object may run user code: never inside a C++ catch). Trivially
// destructible, so nothing with a destructor is live while PHP runs.
enum class ErrorKind { None, Value, OutOfMemory, Exception };
struct PendingError {
    ErrorKind kind = ErrorKind::None;
    zend_class_entry *ce = nullptr;
    char message[1024] = "";
};

void pending_set(PendingError &out, ErrorKind kind, zend_class_entry *ce,
                 const char *message) noexcept {
    out.kind = kind;
    out.ce = ce;
    snprintf(out.message, sizeof out.message, "%s", message);
}

// Call only from a catch block; touches nothing of PHP.
void capture_current(PendingError &out) noexcept {
    try {
        throw;
    } catch (const nativelock::ConnectionError &e) {
        pending_set(out, ErrorKind::Exception, connection_exception_ce, e.what());
    } catch (const nativelock::InvalidArgument &e) {
        pending_set(out, ErrorKind::Value, nullptr, e.what());
    } catch (const std::bad_alloc &) {
        pending_set(out, ErrorKind::OutOfMemory, nullptr, "");
    } catch (const std::exception &e) {
        pending_set(out, ErrorKind::Exception, fail_exception_ce, e.what());
    } catch (...) {
        pending_set(out, ErrorKind::Exception, fail_exception_ce,
                    "nativelock: unknown internal error");
    }
}

// Call after the catch block was left. Returns whether an exception was thrown.
bool throw_pending(const PendingError &error) {
    switch (error.kind) {
        case ErrorKind::None:
            return false;
        case ErrorKind::Value:
            zend_value_error("%s", error.message);
            return true;
        case ErrorKind::OutOfMemory:
            zend_throw_error(nullptr, "nativelock: out of memory");
            return true;
        case ErrorKind::Exception:
            zend_throw_exception(error.ce, error.message, 0);
            return true;
    }
    return false;
}

// RL_TRY … RL_CATCH around a method body that returns from inside the try on success.
#define RL_TRY             \
    PendingError rl_error; \
    try {
#define RL_CATCH                   \
    }                              \
    catch (...) {                  \
        capture_current(rl_error); \
    }                              \
    throw_pending(rl_error);       \
    RETURN_THROWS();

// ---- setRedis() --------------------------------------------------------------------------

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

bool scalar_long(zval *zv, zend_long *out) {
    ZVAL_DEREF(zv);
    if (Z_TYPE_P(zv) == IS_LONG) {
        *out = Z_LVAL_P(zv);
        return true;
    }
    if (Z_TYPE_P(zv) == IS_STRING || Z_TYPE_P(zv) == IS_DOUBLE) {
        *out = zval_get_long(zv);
        return true;
    }
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

bool gather_credis(zend_object *object, RawParams &raw) {
    zend_class_entry *scope = declaring_class(object->ce, "credis_client");
    zval v;
    if (!credis_field(object, scope, "host", "getHost", &v)) return false;
    raw.host = scalar_string(&v);
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "port", "getPort", &v)) return false;
    zend_long port;
    if (scalar_long(&v, &port))
        raw.port = port;
    else
        raw.port = -1;  // unix socket: Credis keeps port null
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "scheme", nullptr, &v)) return false;
    raw.scheme = scalar_string(&v);
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "selectedDb", "getSelectedDb", &v)) return false;
    scalar_long(&v, &raw.database);
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "persistent", "getPersistence", &v)) return false;
    raw.persistent = scalar_string(&v);
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "authUsername", nullptr, &v)) return false;
    raw.username = scalar_string(&v);
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "authPassword", nullptr, &v)) return false;
    raw.password = scalar_string(&v);
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "timeout", nullptr, &v)) return false;
    raw.connect_timeout = scalar_double(&v);
    zval_ptr_dtor(&v);
    if (!credis_field(object, scope, "readTimeout", nullptr, &v)) return false;
    raw.read_timeout = scalar_double(&v);
    zval_ptr_dtor(&v);
    if (raw.host && ZSTR_VAL(raw.host)[0] == '/') {
        raw.path = raw.host;
        raw.host = nullptr;
    }
    return true;
}

bool gather_phpredis(zend_object *object, RawParams &raw) {
    zval v;
    ZVAL_UNDEF(&v);
    if (!call_getter(object, "getHost", &v) || Z_TYPE(v) != IS_STRING) {
        zval_ptr_dtor(&v);
        if (!EG(exception)) {
            zend_value_error(
                "RedisLock::setRedis(): the \\Redis object is not connected (call connect() first, "
                "or pass a redis:// URI)");
        }
        return false;
    }
    raw.host = zend_string_copy(Z_STR(v));
    zval_ptr_dtor(&v);
    if (ZSTR_VAL(raw.host)[0] == '/') {
        raw.path = raw.host;
        raw.host = nullptr;
    }
    if (call_getter(object, "getPort", &v)) scalar_long(&v, &raw.port);
    zval_ptr_dtor(&v);
    ZVAL_UNDEF(&v);
    if (call_getter(object, "getDbNum", &v)) scalar_long(&v, &raw.database);
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
        if (!EG(exception)) {
            zend_value_error(
                "RedisLock::setRedis(): only a single-node Predis\\Client is supported "
                "(getConnection()->getParameters() is not available)");
        }
        return false;
    }
    zend_object *p = Z_OBJ(parameters);
    zval v;
    bool ok = predis_field(p, "scheme", &v);
    if (ok) raw.scheme = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "host", &v))) raw.host = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "port", &v))) scalar_long(&v, &raw.port), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "path", &v))) raw.path = scalar_string(&v), zval_ptr_dtor(&v);
    if (ok && (ok = predis_field(p, "database", &v)))
        scalar_long(&v, &raw.database), zval_ptr_dtor(&v);
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

std::string to_std(const zend_string *s) {
    return s ? std::string(ZSTR_VAL(s), ZSTR_LEN(s)) : std::string();
}

// Phase 2: pure C++. Throws InvalidArgument.
std::shared_ptr<const ConnectionParams> build_params(const RawParams &raw) {
    ConnectionParams p;
    if (raw.uri) {
        std::optional<nativelock::redis::UriParts> url;
        if (raw.url) {
            url.emplace();
            auto part = [](zend_string *s) {
                return s ? std::optional<std::string>(to_std(s)) : std::nullopt;
            };
            url->scheme = part(raw.url->scheme);
            url->user = part(raw.url->user);
            url->pass = part(raw.url->pass);
            url->host = part(raw.url->host);
            url->path = part(raw.url->path);
            url->query = part(raw.url->query);
            url->fragment = part(raw.url->fragment);
            if (raw.url_has_port) url->port = raw.url->port;
        }
        p = nativelock::redis::parse_uri(std::string_view(ZSTR_VAL(raw.uri), ZSTR_LEN(raw.uri)),
                                         url);
    } else {
        std::string scheme = to_std(raw.scheme);
        for (auto &c : scheme) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
        if (scheme == "tls" || scheme == "ssl" || scheme == "rediss" ||
            scheme.rfind("tlsv", 0) == 0) {
            throw nativelock::InvalidArgument(
                "RedisLock::setRedis(): TLS connections are not supported (hiredis 0.14 has no "
                "TLS)");
        }
        if (raw.path) {
            p.unix_path = to_std(raw.path);
        } else {
            p.host = raw.host && ZSTR_LEN(raw.host) ? to_std(raw.host) : "127.0.0.1";
            if (p.host == "localhost") p.host = "127.0.0.1";
            p.port = raw.port > 0 && raw.port <= 65535 ? static_cast<int>(raw.port) : 6379;
        }
        p.database = raw.database;
        p.username = to_std(raw.username);
        p.password = to_std(raw.password);
        p.has_password = raw.password != nullptr && ZSTR_LEN(raw.password) > 0;
        if (!p.has_password) p.username.clear();
        p.persistent_id = to_std(raw.persistent);
    }
    if (p.database < 0)
        throw nativelock::InvalidArgument(
            "RedisLock::setRedis(): the database number must be >= 0");
    p.connect_timeout =
        raw.connect_timeout > 0 ? raw.connect_timeout : NATIVELOCK_G(redis_connect_timeout);
    p.read_timeout = raw.read_timeout > 0 ? raw.read_timeout : NATIVELOCK_G(redis_read_timeout);
    return std::make_shared<const ConnectionParams>(std::move(p));
}

// Parses a client object or URI into the request's parameters. Returns false with a PHP
// exception pending on failure.
bool configure_from(zval *redis) {
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
            "RedisLock::setRedis(): Argument #1 ($redis) must be of type "
            "Credis_Client|Redis|Predis\\Client|string "
            "(redis://[user:pass@]host[:port][/db], tcp://host:port, unix:///path or /path), %s "
            "given",
            zend_zval_type_name(redis));
        ok = false;
    }
    if (!ok || EG(exception)) {
        raw_free(raw);
        return false;
    }
    PendingError error;
    try {
        shared().params = build_params(raw);
    } catch (...) {
        capture_current(error);
    }
    raw_free(raw);
    throw_pending(error);
    return !EG(exception);
}

// ensureRedisIsSet(): the parameters of this request, parsed lazily from RedisLock::$redis
// if a subclass assigned it directly. Throws the original's plain Exception when unset.
bool ensure_redis() {
    if (shared_state && shared_state->params) return true;
    zval *stored = zend_read_static_property(redislock_ce, "redis", sizeof("redis") - 1, 1);
    if (stored && zend_is_true(stored)) return configure_from(stored);
    zend_throw_exception(zend_ce_exception, "You must call setRedis() before using redis locks", 0);
    return false;
}

// ---- construction ------------------------------------------------------------------------

bool fail_constant_matches(zend_class_entry *ce, zval *value, const char *name,
                           const char *literal) {
    if (ce == redislock_ce) {
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

    auto &state = from_object(object)->state;
    if (state.held) {
        // Re-running the constructor on a held lock: let go of it first.
        try {
            native_release(state);
        } catch (...) {
        }
        if (untrack(state)) GC_DELREF(object);
        state.held = false;
    }
    zend_string *value_str = nullptr;
    PendingError error;
    try {
        state.name.assign(ZSTR_VAL(name_str), ZSTR_LEN(name_str));
        state.value = nativelock::random::base64_token(15);
        state.timeout = Z_LVAL_P(timeout);
        state.fail = fail;
        state.constructed = true;
        value_str = zend_string_init(state.value.data(), state.value.size(), 0);
    } catch (...) {
        capture_current(error);
    }
    zend_string_release(name_str);
    if (throw_pending(error)) return;
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

LockState *constructed_state(zend_object *object) {
    auto &state = from_object(object)->state;
    if (!state.constructed) {
        zend_throw_error(nullptr, "%s object is not initialized: its constructor was not called",
                         ZSTR_VAL(object->ce->name));
        return nullptr;
    }
    return &state;
}

bool overridden(zend_class_entry *ce, const char *lcname, size_t len) {
    if (ce == redislock_ce) return false;
    auto *fn =
        static_cast<zend_function *>(zend_hash_str_find_ptr(&ce->function_table, lcname, len));
    return fn && fn->common.scope != redislock_ce;
}

// The key: "redislock:" . name natively, or what an overriding key() returns (called here,
// before the core is entered). Returns nullptr with an exception pending on failure.
zend_string *lock_key(zend_object *object, const LockState &state) {
    if (!overridden(object->ce, "key", 3)) {
        zend_string *key = zend_string_alloc(10 + state.name.size(), 0);
        memcpy(ZSTR_VAL(key), "redislock:", 10);
        memcpy(ZSTR_VAL(key) + 10, state.name.data(), state.name.size());
        ZSTR_VAL(key)[ZSTR_LEN(key)] = '\0';
        return key;
    }
    zval result;
    ZVAL_UNDEF(&result);
    zend_call_method_with_0_params(object, object->ce, nullptr, "key", &result);
    if (EG(exception)) {
        zval_ptr_dtor(&result);
        return nullptr;
    }
    zend_string *key = zval_try_get_string(&result);
    zval_ptr_dtor(&result);
    return key;
}

enum class LockOutcome { Acquired, NotAcquired, Error, Thrown, Bailout };

// The lock's TTL as sent to the server (SPEC §2 numbers): at least 1 s (0 and negative
// values are a ValueError at lock()), at most kMaxTtlSeconds (larger values are clamped:
// servers before Redis 7 wrap EX overflows into an expired key).
constexpr long long kMaxTtlSeconds = 1000000000LL;  // ~31.7 years

long long effective_ttl(long long seconds) {
    return seconds > kMaxTtlSeconds ? kMaxTtlSeconds : seconds;
}

// The C++ part of lock(): every C++ object of the wait lives in this frame. Pending PHP
// signal handlers run between waits (inside zend_try, see interrupts.h) and the wait goes on
// with the same deadline. Returns Thrown when a handler threw or exited, Bailout when PHP must
// bail out (the caller does so once this frame is gone), Error with `error` filled.
LockOutcome lock_natively(zend_object *object, std::string_view key, double budget,
                          PendingError &error) noexcept {
    try {
        // A copy: setRedis() called by a signal handler does not move a wait in progress.
        std::shared_ptr<const ConnectionParams> params = shared().params;
        LockState *state = &from_object(object)->state;
        std::string value = state->value;
        long long ttl = effective_ttl(state->timeout);
        bool got;
        if (budget > 0) {
            auto deadline = nativelock::Deadline::after(budget);  // >= 1e9 s or INF: never
            nativelock::redis::AcquireWait wait(*params, std::string(key), value, ttl);
            for (;;) {
                // Fetched again each round: a handler may have used or replaced the pooled
                // connection.
                auto &conn = shared().pool.get(*params);
                auto outcome = wait.wait(conn, deadline, nativelock::php::interrupt_pending);
                if (outcome != nativelock::redis::WaitOutcome::Interrupted) {
                    got = outcome == nativelock::redis::WaitOutcome::Acquired;
                    break;
                }
                switch (nativelock::php::run_pending_interrupts()) {
                    case nativelock::php::AfterInterrupt::KeepWaiting:
                        continue;
                    case nativelock::php::AfterInterrupt::Exception:
                        return LockOutcome::Thrown;
                    case nativelock::php::AfterInterrupt::Bailout:
                        return LockOutcome::Bailout;
                }
            }
        } else {
            auto &conn = shared().pool.get(*params);
            got = nativelock::redis::try_acquire(conn, key, value, ttl);
        }
        if (!got) return LockOutcome::NotAcquired;
        state = &from_object(object)->state;
        state->held = true;
        state->value = std::move(value);
        state->pid = nativelock::process::current_pid();
        state->key.assign(key.data(), key.size());
        state->params = std::move(params);
        return LockOutcome::Acquired;
    } catch (...) {
        capture_current(error);
        return LockOutcome::Error;
    }
}

// lock(): acquires per the fail behaviour. Sets return_value like the original (true/false)
// or leaves an exception pending.
void do_lock(zend_object *object, bool has_max_wait, double max_wait, zval *return_value) {
    if (!ensure_redis()) return;
    LockState *state = constructed_state(object);
    if (!state) return;
    if (state->timeout < 1) {
        zend_value_error(
            "RedisLock::lock(): the lock's $timeout (TTL) must be at least 1 second, " ZEND_LONG_FMT
            " given",
            static_cast<zend_long>(state->timeout));
        return;
    }
    zend_string *key = lock_key(object, *state);
    if (!key) return;
    state = &from_object(object)->state;  // key() may have run user code
    double budget =
        has_max_wait ? max_wait : (state->fail == Fail::Block ? kDefaultBlockBudget : 0.0);

    PendingError error;
    LockOutcome outcome =
        lock_natively(object, std::string_view(ZSTR_VAL(key), ZSTR_LEN(key)), budget, error);
    zend_string_release(key);
    if (outcome == LockOutcome::Bailout) zend_bailout();
    if (outcome == LockOutcome::Thrown) return;
    if (outcome == LockOutcome::Error) {
        throw_pending(error);
        return;
    }
    if (outcome == LockOutcome::Acquired) {
        track(object);
        set_needs_release(object, true);
        RETURN_TRUE;
    }
    state = &from_object(object)->state;
    switch (state->fail) {
        case Fail::Except:
            zend_throw_exception_ex(fail_exception_ce, 0, "Could not get lock \"%.*s\"",
                                    static_cast<int>(state->name.size()), state->name.data());
            return;
        case Fail::Return:
            RETURN_FALSE;
        case Fail::Block:
            zend_throw_exception_ex(fail_exception_ce, 0,
                                    "Could not get lock \"%.*s\" after 5 tries.",
                                    static_cast<int>(state->name.size()), state->name.data());
            return;
    }
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
    if (ctor && ctor->common.scope != redislock_ce) {
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

}  // namespace

// ---- methods -----------------------------------------------------------------------------

ZEND_METHOD(RedisLock, setRedis) {
    zval *redis;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(redis)
    ZEND_PARSE_PARAMETERS_END();
    if (!configure_from(redis)) RETURN_THROWS();
    zend_update_static_property(redislock_ce, "redis", sizeof("redis") - 1, redis);
}

ZEND_METHOD(RedisLock, ensureRedisIsSet) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!ensure_redis()) RETURN_THROWS();
}

// create() and createAndLock() pass ($name, $timeout, $failBehavior = FAIL_EXCEPT) on; the
// default is a new string the caller must release when fail_behavior was not given.
static void forward_create_args(zval args[3], zval *name, zval *timeout, zval *fail_behavior) {
    ZVAL_COPY_VALUE(&args[0], name);
    ZVAL_COPY_VALUE(&args[1], timeout);
    if (fail_behavior) {
        ZVAL_COPY_VALUE(&args[2], fail_behavior);
    } else {
        default_fail_behavior(&args[2]);
    }
}

ZEND_METHOD(RedisLock, create) {
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
    bool ok = instantiate(scope ? scope : redislock_ce, args, return_value);
    if (!fail_behavior) zval_ptr_dtor(&args[2]);
    if (!ok) RETURN_THROWS();
}

ZEND_METHOD(RedisLock, createAndLock) {
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
    if (!scope) scope = redislock_ce;

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
    if (instanceof_function(object->ce, redislock_ce) && !overridden(object->ce, "lock", 4)) {
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

ZEND_METHOD(RedisLock, key) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    zend_string *key = zend_string_alloc(10 + state->name.size(), 0);
    memcpy(ZSTR_VAL(key), "redislock:", 10);
    memcpy(ZSTR_VAL(key) + 10, state->name.data(), state->name.size());
    ZSTR_VAL(key)[ZSTR_LEN(key)] = '\0';
    RETURN_NEW_STR(key);
}

ZEND_METHOD(RedisLock, lock) {
    // lock(?float $maxWait = null): the parameter is accepted but not declared (see stub).
    double max_wait = 0;
    bool max_wait_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_DOUBLE_OR_NULL(max_wait, max_wait_null)
    ZEND_PARSE_PARAMETERS_END();
    if (!max_wait_null && (std::isnan(max_wait) || max_wait < 0)) {
        zend_argument_value_error(1, "($maxWait) must be null or a number of seconds >= 0");
        RETURN_THROWS();
    }
    do_lock(Z_OBJ_P(ZEND_THIS), !max_wait_null, max_wait, return_value);
}

ZEND_METHOD(RedisLock, release) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!ensure_redis()) RETURN_THROWS();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    auto &state = from_object(object)->state;
    if (!state.held) return;
    PendingError error;
    try {
        native_release(state);
    } catch (...) {
        capture_current(error);
    }
    if (throw_pending(error)) RETURN_THROWS();
    bool drop_ref = untrack(state);
    set_needs_release(object, false);
    if (drop_ref) OBJ_RELEASE(object);
}

ZEND_METHOD(RedisLock, releaseAllCurrentlyHeldLocks) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!ensure_redis()) RETURN_THROWS();
    // Unlink every held RedisLock first (user destructors run by the releases below must not
    // see a half-walked list), then release them one by one.
    uint32_t count = 0;
    for (RegistryEntry *e = NATIVELOCK_G(held_locks)[nativelock::php::kReleaseAtRequestShutdown]; e;
         e = e->next) {
        if (is_redislock_entry(e)) ++count;
    }
    if (count == 0) return;
    auto **objects = static_cast<zend_object **>(safe_emalloc(count, sizeof(zend_object *), 0));
    uint32_t n = 0;
    for (RegistryEntry *e = NATIVELOCK_G(held_locks)[nativelock::php::kReleaseAtRequestShutdown];
         e;) {
        RegistryEntry *next = e->next;
        if (is_redislock_entry(e)) {
            nativelock::php::registry_remove(e);
            objects[n++] = &from_entry(e)->std;
        }
        e = next;
    }
    bool failed = false;
    for (uint32_t i = 0; i < n; ++i) {
        zend_object *object = objects[i];
        auto &state = from_object(object)->state;
        if (!failed && overridden(object->ce, "release", 7)) {
            // $lock->release() as the original calls it, so an override runs. The registry's
            // reference is held by this loop meanwhile.
            zval rv;
            ZVAL_UNDEF(&rv);
            zend_call_method_with_0_params(object, object->ce, nullptr, "release", &rv);
            zval_ptr_dtor(&rv);
            if (EG(exception)) failed = true;
        } else if (!failed) {
            PendingError error;
            try {
                native_release(state);
            } catch (...) {
                capture_current(error);
            }
            failed = throw_pending(error);
        }
        if (state.held) {
            // Not released (an error above): keep it tracked for request end.
            nativelock::php::registry_add(&state.entry);
            continue;
        }
        set_needs_release(object, false);
        OBJ_RELEASE(object);
    }
    efree(objects);
    if (failed) RETURN_THROWS();
}

ZEND_METHOD(RedisLock, refresh) {
    zend_long ttl = 0;
    bool ttl_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    long long seconds = ttl_null ? state->timeout : ttl;
    if (seconds < 1) {
        zend_argument_value_error(1, "must be null or a number of seconds >= 1");
        RETURN_THROWS();
    }
    seconds = effective_ttl(seconds);
    if (!state->held || state->pid != nativelock::process::current_pid()) RETURN_FALSE;
    RL_TRY
    auto &conn = shared().pool.get(*state->params);
    RETURN_BOOL(nativelock::redis::refresh(conn, state->key, state->value, seconds * 1000));
    RL_CATCH
}

ZEND_METHOD(RedisLock, getRemainingLifetime) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (!state->held || state->pid != nativelock::process::current_pid()) RETURN_NULL();
    RL_TRY
    auto &conn = shared().pool.get(*state->params);
    auto ms = nativelock::redis::remaining_ms(conn, state->key, state->value);
    if (!ms) RETURN_NULL();
    if (*ms < 0) RETURN_DOUBLE(INFINITY);
    RETURN_DOUBLE(static_cast<double>(*ms) / 1000.0);
    RL_CATCH
}

ZEND_METHOD(RedisLock, isAcquired) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed_state(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (!state->held || state->pid != nativelock::process::current_pid()) RETURN_FALSE;
    RL_TRY
    auto &conn = shared().pool.get(*state->params);
    RETURN_BOOL(nativelock::redis::is_held(conn, state->key, state->value));
    RL_CATCH
}

// ---- module hooks ------------------------------------------------------------------------

void nativelock_redislock_minit(int) {
    fail_exception_ce = register_class_RedisLockFailException(zend_ce_exception);
    connection_exception_ce = register_class_RedisLockConnectionException(fail_exception_ce);
    redislock_ce = register_class_RedisLock();
    redislock_ce->create_object = create_object;
    // setRedis(#[\SensitiveParameter] $redis): traces show Object(SensitiveParameterValue)
    // instead of a URI with its password.
    zend_add_parameter_attribute(
        static_cast<zend_function *>(zend_hash_str_find_ptr(&redislock_ce->function_table,
                                                            "setredis", sizeof("setredis") - 1)),
        0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
    memcpy(&redislock_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
    redislock_handlers.offset = XtOffsetOf(LockObject, std);
    redislock_handlers.free_obj = free_object;
    redislock_handlers.clone_obj = nullptr;
    for (int i = 0; i < kPropCount; ++i) {
        auto *info = static_cast<zend_property_info *>(zend_hash_str_find_ptr(
            &redislock_ce->properties_info, kPropertyNames[i], strlen(kPropertyNames[i])));
        ZEND_ASSERT(info);
        property_offsets[i] = info->offset;
    }
}

void nativelock_redislock_rshutdown() {
    // Held locks were released by the registry drain just before; only the request's
    // configuration is forgotten. Pooled connections stay for the next request.
    if (shared_state) {
        shared_state->params.reset();
        shared_state->failed_at_shutdown.clear();
    }
}

void nativelock_redislock_mshutdown() {
    delete shared_state;
    shared_state = nullptr;
}

void nativelock_redislock_minfo() {
    char pooled[64];
    snprintf(pooled, sizeof pooled, "%zu open, %zu opened in this process",
             shared_state ? shared_state->pool.size() : static_cast<size_t>(0),
             shared_state ? shared_state->pool.opened() : static_cast<size_t>(0));
    char hiredis[64];
    snprintf(hiredis, sizeof hiredis, "hiredis %d.%d.%d (no TLS)", HIREDIS_MAJOR, HIREDIS_MINOR,
             HIREDIS_PATCH);
    php_info_print_table_start();
    php_info_print_table_header(2, "RedisLock", "enabled");
    php_info_print_table_row(2, "RedisLock client", hiredis);
    php_info_print_table_row(2, "RedisLock protocol",
                             "SET NX EX, compare-and-delete script + PUBLISH wake-up");
    php_info_print_table_row(2, "RedisLock pooled connections", pooled);
    php_info_print_table_end();
}
