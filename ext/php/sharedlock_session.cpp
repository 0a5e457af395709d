// SharedLock's state: the request's configuration and connection, the process's pool of native
// sessions (reused across requests, renewed after fork), and which session a statement runs on.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharedlock_shim.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "ext/pdo/php_pdo_driver.h"
#include "ext/standard/info.h"
}

#include <cstring>

#include "common/process.hpp"

namespace nativelock::php::sharedlock {

namespace core = nativelock::mysql;

RequestState &st() {
    if (!NATIVELOCK_G(sharedlock_state)) NATIVELOCK_G(sharedlock_state) = new RequestState();
    return *NATIVELOCK_G(sharedlock_state);
}

RequestState *request_state_if_any() {
    return NATIVELOCK_G(sharedlock_state);
}

Pool &the_pool() {
    Pool *&pool = NATIVELOCK_G(sharedlock_pool);
    if (!pool) pool = new Pool();
    if (pool->owner != nativelock::process::current_tag()) {
        // Forked: the inherited sessions are the parent's. disconnect() sends nothing on them.
        pool->sessions.drop_all();
        pool->owner = nativelock::process::current_tag();
        if (RequestState *state = request_state_if_any()) {
            state->native = nullptr;
            state->native_in_use.reset();
        }
    }
    // ini_set() may have changed it since the last call.
    pool->sessions.set_idle_timeout(pool_idle_timeout());
    return *pool;
}

core::QuoteStyle quote_style() {
    return st().quote_style == 1 ? core::QuoteStyle::Ansi : core::QuoteStyle::Default;
}

std::string str_of(zval *value) {
    zend_string *s = zval_get_string(value);
    std::string out(ZSTR_VAL(s), ZSTR_LEN(s));
    zend_string_release(s);
    return out;
}

bool driver_is_pdo() {
    const char *driver = NATIVELOCK_G(sharedlock_driver);
    return driver && strcmp(driver, "pdo") == 0;
}

// --- PDO objects ------------------------------------------------------------------------

zend_class_entry *pdo_class() {
    return static_cast<zend_class_entry *>(zend_hash_str_find_ptr(CG(class_table), "pdo", 3));
}

void open_pdo(zval *out) {
    RequestState &s = st();
    zend_class_entry *ce = pdo_class();
    if (!ce) throw nativelock::Error("the PDO extension is not loaded");
    auto part = [](zval *z) { return Z_TYPE_P(z) == IS_UNDEF ? std::string() : str_of(z); };
    auto empty = [](zval *z) { return Z_TYPE_P(z) == IS_UNDEF || !zend_is_true(z); };
    std::string dsn = "mysql:host=" + part(&s.config_host) + ";dbname=" + part(&s.config_db) +
                      ";charset=" + part(&s.config_charset) +
                      (!empty(&s.config_port) ? ";port=" + part(&s.config_port) : std::string()) +
                      (!empty(&s.config_dsn) ? ";" + part(&s.config_dsn) : std::string());
    zval object;
    object_init_ex(&object, ce);
    zval args[4];
    ZVAL_STRINGL(&args[0], dsn.data(), dsn.size());
    if (Z_TYPE(s.config_user) == IS_UNDEF)
        ZVAL_NULL(&args[1]);
    else
        ZVAL_COPY(&args[1], &s.config_user);
    if (Z_TYPE(s.config_password) == IS_UNDEF)
        ZVAL_NULL(&args[2]);
    else
        ZVAL_COPY(&args[2], &s.config_password);
    array_init(&args[3]);
    add_index_long(&args[3], 3, 2);  // PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION
    zval ret;
    CallStatus status = guarded_call(Z_OBJ(object), Z_OBJCE(object)->constructor, &ret, 4, args);
    for (zval &a : args) zval_ptr_dtor(&a);
    if (status == CallStatus::Bailout) {
        zval_ptr_dtor(&ret);
        zval_ptr_dtor(&object);
        throw PhpBailout();
    }
    if (status == CallStatus::Exception) {
        zend_object *exception = nullptr;
        std::exception_ptr pending;
        try {
            exception = pdo_exception_or_defer(&ret);
        } catch (...) {
            pending = std::current_exception();  // a handler's throwable, deferred
        }
        zval_ptr_dtor(&ret);
        if (pending || exception) zval_ptr_dtor(&object);
        if (pending) std::rethrow_exception(pending);
        if (exception) {
            stash_exception(exception);
            throw nativelock::ConnectionError("PDO connection failed");
        }
    } else {
        zval_ptr_dtor(&ret);
    }
    zval attr[2];
    ZVAL_LONG(&attr[0], 20);  // PDO::ATTR_EMULATE_PREPARES
    ZVAL_FALSE(&attr[1]);
    std::exception_ptr failure;
    try {
        call_method(Z_OBJ(object), "setAttribute", &ret, 2, attr);
    } catch (...) {
        failure = std::current_exception();  // the PDO is released outside the catch block
    }
    if (failure) {
        zval_ptr_dtor(&object);
        std::rethrow_exception(failure);
    }
    zval_ptr_dtor(&ret);
    ZVAL_COPY_VALUE(out, &object);
}

// --- the session the next statement runs on -------------------------------------------

namespace {

// Frees a PDO of ours (open_pdo(): a plain PDO, no user code runs), already cut off.
void free_detached(zval *pdo) {
    zval inherited;
    ZVAL_COPY_VALUE(&inherited, pdo);
    ZVAL_UNDEF(pdo);
    zval_ptr_dtor(&inherited);
}

// A PDO another process opened shares that process's connection: freeing it would send QUIT
// there, and closing its prepared statements their close. Cut off from the socket first.
void detach_if_inherited(zval *pdo, const nativelock::process::Tag &owner) {
    if (Z_TYPE_P(pdo) == IS_OBJECT && owner != nativelock::process::current_tag())
        detach_inherited_pdo(Z_OBJ_P(pdo));
}

}  // namespace

void drop_inherited_pdo_of_ours() {
    RequestState &s = st();
    const auto here = nativelock::process::current_tag();
    // Opened by us in a parent process, they share the parent's connections: a statement on the
    // lock session's would run in the parent's session (a release there frees the parent's
    // lock), and freeing either would send QUIT there.
    if (Z_TYPE(s.pdo) == IS_OBJECT && s.pdo_owner != here && s.pdo_opened_here) {
        // Cut off before the session goes: freeing its prepared statements would otherwise
        // send their close on the parent's connection (the parent's next use of them fails).
        detach_inherited_pdo(Z_OBJ(s.pdo));
        if (s.pdo_session && s.pdo_session->running()) {
            // A signal handler forked inside one of the parent's statements, whose call is still
            // on this stack: its session must outlive it (that call then fails in the child).
            throw nativelock::Error(
                "a signal handler forked during a SharedLock statement: the child cannot use "
                "SharedLock before that handler returns");
        }
        s.pdo_session.reset();
        free_detached(&s.pdo);
    }
    if (Z_TYPE(s.side_pdo) == IS_OBJECT && s.side_pdo_owner != here) {
        detach_inherited_pdo(Z_OBJ(s.side_pdo));
        free_detached(&s.side_pdo);
    }
}

core::Session &session() {
    RequestState &s = st();
    if (s.pdo_mode || !s.configured) {
        if (!s.configured && Z_TYPE(s.pdo) == IS_UNDEF)
            throw nativelock::Error(
                "no connection: call SharedLock::configureConnection() or "
                "SharedLock::setConnection() first");
        drop_inherited_pdo_of_ours();
        if (Z_TYPE(s.pdo) == IS_OBJECT && s.pdo_owner != nativelock::process::current_tag()) {
            // Inherited across fork, and the application's: a statement on it would run in the
            // parent's session, where a release frees the parent's lock.
            throw nativelock::Error(
                "the PDO given to SharedLock::setConnection() belongs to the parent process (it "
                "shares the parent's connection): in a forked child, call setConnection() with a "
                "PDO the child opened");
        }
        if (Z_TYPE(s.pdo) == IS_UNDEF) {
            open_pdo(&s.pdo);
            s.pdo_owner = nativelock::process::current_tag();
            s.pdo_opened_here = true;
        }
        if (!s.pdo_session || s.pdo_session->pdo() != Z_OBJ(s.pdo))
            s.pdo_session = std::make_unique<PdoSession>(Z_OBJ(s.pdo));
        return *s.pdo_session;
    }
    Pool &p = the_pool();
    const auto now = Pool::Sessions::Clock::now();
    if (!s.native) {
        std::string key = s.params.key();
        core::NativeSession *native = p.sessions.find(key, now);
        if (!native)
            native = &p.sessions.add(key, std::make_unique<core::NativeSession>(s.params), now);
        s.native_in_use = p.sessions.pin(key);
        s.native = native;
    }
    // On every statement, not only when the session is chosen: a CLI worker that switched
    // configurations once runs in one request for good, and must still close the session it
    // left. Ours is pinned.
    p.sessions.close_idle_on_access(now);
    s.native->ensure_connected();
    return *s.native;
}

void release_before_switch() {
    RequestState &s = st();
    if (s.pdo_session && s.pdo_session->running())
        throw nativelock::Error(
            "the connection cannot be switched by code that runs inside a SharedLock statement "
            "on it (a PDO subclass, a signal handler)");
    if (!s.held.empty()) release_all_held();
    drop_inherited_pdo_of_ours();
    detach_if_inherited(&s.pdo, s.pdo_owner);  // the application's, before its session goes
    s.pdo_session.reset();
    zval_ptr_dtor(&s.pdo);
    ZVAL_UNDEF(&s.pdo);
    zval_ptr_dtor(&s.side_pdo);
    ZVAL_UNDEF(&s.side_pdo);
    s.native = nullptr;
    s.native_in_use.reset();
}

}  // namespace nativelock::php::sharedlock

using namespace nativelock::php::sharedlock;

void nativelock_sharedlock_rshutdown() {
    // The registry drain (before this hook) released held locks; now drop the request state.
    if (RequestState *state = request_state_if_any()) {
        if (!state->held.empty()) release_at_request_end(&state->entry);
        nativelock::php::registry_remove(&state->entry);
        detach_if_inherited(&state->pdo, state->pdo_owner);
        detach_if_inherited(&state->side_pdo, state->side_pdo_owner);
        delete state;
        NATIVELOCK_G(sharedlock_state) = nullptr;
    }
    drop_previous();
    drop_deferred_throwable();
    // The request let go of its session above: sessions unused for nativelock.pool_idle_timeout
    // (all with 0) close now. Through the_pool(), which drops a forked child's inherited ones.
    if (NATIVELOCK_G(sharedlock_pool)) the_pool().sessions.close_idle();
}

// A request state made after RSHUTDOWN, by user code that ran later (see the module's
// post_deactivate): its objects (the PDO, exceptions) were freed with the object store and are
// not touched. Locks on a native session are released; lock() takes none through a PDO then.
void nativelock_sharedlock_post_deactivate() {
    RequestState *state = request_state_if_any();
    NATIVELOCK_G(sharedlock_stashed_previous) = nullptr;
    NATIVELOCK_G(sharedlock_deferred_throwable) = nullptr;
    if (!state) return;
    for (zval *z : {&state->config_host, &state->config_db, &state->config_user,
                    &state->config_password, &state->config_charset, &state->config_port,
                    &state->config_dsn, &state->pdo, &state->side_pdo})
        ZVAL_UNDEF(z);
    if (state->pdo_session) state->pdo_session->abandon();
    if (!state->held_via_pdo) release_at_request_end(&state->entry);
    state->held.clear();
    delete state;
    NATIVELOCK_G(sharedlock_state) = nullptr;
    if (NATIVELOCK_G(sharedlock_pool)) the_pool().sessions.close_idle();
}

// Per thread under ZTS, after MSHUTDOWN under NTS: the pool's sessions close here.
void nativelock_sharedlock_gshutdown(zend_nativelock_globals *globals) {
    delete globals->sharedlock_pool;
    globals->sharedlock_pool = nullptr;
}

void nativelock_sharedlock_minfo() {
    php_info_print_table_start();
    php_info_print_table_row(2, "SharedLock drivers",
                             "native (MariaDB Connector/C, pooled per worker), pdo");
    php_info_print_table_row(2, "SharedLock driver (nativelock.sharedlock_driver)",
                             NATIVELOCK_G(sharedlock_driver));
    // Without allocating: phpinfo() does not open the pool.
    const Pool *pool = NATIVELOCK_G(sharedlock_pool);
    nativelock::php::print_pool_row(
        "SharedLock pooled native sessions", pool ? pool->sessions.size() : 0,
        pool ? pool->sessions.opened() : 0, pool ? pool->sessions.closed_idle() : 0);
    php_info_print_table_end();
}
