// ItsMieger\MySqlSharedLocks\SharedLock (static) and the module hooks of the SharedLock shim:
// per-request state, the pool of native sessions reused across requests, request-end release.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharedlock_shim.h"

extern "C" {
#include "Zend/zend_attributes.h"
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"
#include "ext/standard/basic_functions.h"
#include "ext/standard/info.h"
}

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/process.hpp"
#include "mysql/native_session.hpp"
#include "mysql/protocol.hpp"
#include "interrupts.h"

extern "C" {
#include "ext/mysqlnd/mysqlnd.h"
#include "ext/pdo/php_pdo_driver.h"
}

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include "request_registry.h"
#include "sharedlock_arginfo.h"

namespace nativelock::php::sharedlock {

zend_class_entry *ce_shared_lock;
zend_class_entry *ce_handle;
zend_class_entry *ce_exception;
zend_class_entry *ce_acquire;
zend_class_entry *ce_timeout;
zend_class_entry *ce_release;
zend_class_entry *ce_remaining_ttl;
zend_class_entry *ce_table_repair;

}  // namespace nativelock::php::sharedlock

using namespace nativelock::php::sharedlock;
namespace core = nativelock::mysql;

namespace {

// Native sessions of this process, reused across requests, keyed by connection parameters.
struct Pool {
    pid_t pid = 0;
    std::map<std::string, std::unique_ptr<core::NativeSession>> sessions;
};

// SharedLock's static state for one request (the package keeps it in static properties).
struct RequestState {
    bool configured = false;
    // The package's configuration, verbatim, for getConnection()'s PDO.
    zval config_host, config_db, config_user, config_password, config_charset, config_port,
        config_dsn;
    core::ConnectParams params;
    int quote_style = 0;
    // PDO driver: the lock session's PDO (setConnection() or lazily opened).
    bool pdo_mode = false;
    zval pdo;
    // The process that set or opened `pdo`: a forked child must not destroy it (its QUIT
    // would end the parent's session).
    pid_t pdo_pid = 0;
    std::unique_ptr<PdoSession> pdo_session;
    // Native driver: getConnection()'s separate PDO.
    zval side_pdo;
    core::NativeSession *native = nullptr;
    // Locks taken in this request and still held, with the session they belong to.
    std::vector<std::string> held;
    bool held_via_pdo = false;
    std::uint64_t held_generation = 0;
    // The native session generation each held lock was taken in (parallel to `held`): a lock
    // of an older generation died with its session and is not released again.
    std::vector<std::uint64_t> held_generations;
    pid_t held_pid = 0;
    core::NativeSession *held_native = nullptr;
    nativelock::php::RegistryEntry entry;

    RequestState() {
        for (zval *z : {&config_host, &config_db, &config_user, &config_password, &config_charset,
                        &config_port, &config_dsn, &pdo, &side_pdo})
            ZVAL_UNDEF(z);
    }
    void clear_config() {
        for (zval *z : {&config_host, &config_db, &config_user, &config_password, &config_charset,
                        &config_port, &config_dsn}) {
            zval_ptr_dtor(z);
            ZVAL_UNDEF(z);
        }
    }
    ~RequestState() {
        clear_config();
        pdo_session.reset();
        zval_ptr_dtor(&pdo);
        zval_ptr_dtor(&side_pdo);
    }
};

ZEND_TLS Pool *pool = nullptr;
ZEND_TLS RequestState *state = nullptr;

RequestState &st() {
    if (!state) state = new RequestState();
    return *state;
}

Pool &the_pool() {
    if (!pool) pool = new Pool();
    if (pool->pid != nativelock::process::current_pid()) {
        // Forked: the inherited sessions are the parent's. disconnect() sends nothing on them.
        pool->sessions.clear();
        pool->pid = nativelock::process::current_pid();
        if (state) state->native = nullptr;
    }
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

// new PDO(...) exactly as the package's getConnection() builds it.
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
    zval_ptr_dtor(&ret);
    if (status == CallStatus::Bailout) {
        zval_ptr_dtor(&object);
        throw PhpBailout();
    }
    if (status == CallStatus::Exception) {
        zval_ptr_dtor(&object);
        zend_object *exception = EG(exception);
        GC_ADDREF(exception);
        zend_clear_exception();
        stash_exception(exception);
        throw nativelock::ConnectionError("PDO connection failed");
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

core::Session &session() {
    RequestState &s = st();
    if (s.pdo_mode || !s.configured) {
        if (!s.configured && Z_TYPE(s.pdo) == IS_UNDEF)
            throw nativelock::Error(
                "no connection: call SharedLock::configureConnection() or "
                "SharedLock::setConnection() first");
        if (Z_TYPE(s.pdo) == IS_UNDEF) {
            open_pdo(&s.pdo);
            s.pdo_pid = nativelock::process::current_pid();
        }
        if (!s.pdo_session || s.pdo_session->pdo() != Z_OBJ(s.pdo))
            s.pdo_session = std::make_unique<PdoSession>(Z_OBJ(s.pdo));
        return *s.pdo_session;
    }
    Pool &p = the_pool();
    if (!s.native) {
        std::string key = s.params.key();
        auto found = p.sessions.find(key);
        if (found == p.sessions.end()) {
            found = p.sessions.emplace(key, std::make_unique<core::NativeSession>(s.params)).first;
        }
        s.native = found->second.get();
    }
    s.native->ensure_connected();
    return *s.native;
}

// --- held locks and request-end release -----------------------------------------------

void forget_held() {
    RequestState &s = st();
    s.held.clear();
    s.held_generations.clear();
    s.held_native = nullptr;
    nativelock::php::registry_remove(&s.entry);
}

// Releases every held lock on the native session; a session that fails is dropped (which
// releases its GET_LOCKs server-side). Never calls PHP.
void release_native_held() noexcept {
    RequestState &s = *state;
    core::NativeSession *native = s.held_native;
    if (native && s.held_pid == nativelock::process::current_pid() && native->connected()) {
        try {
            core::Protocol protocol(*native, quote_style());
            for (std::size_t i = 0; i < s.held.size(); ++i) {
                if (i < s.held_generations.size() && s.held_generations[i] == native->generation())
                    protocol.release_at_end(s.held[i]);
            }
        } catch (...) {
            native->disconnect();
        }
    }
    s.held.clear();
    s.held_generations.clear();
    s.held_native = nullptr;
}

// The PDO's own driver, for request end: quoting and statements through pdo_dbh_t's methods,
// with no PHP method call (a user subclass of PDO cannot run here) and no exception. Reads no
// result rows: a statement that needs one reports an error, which ends that release.
class PdoDriverSession : public core::Session {
  public:
    explicit PdoDriverSession(pdo_dbh_t *dbh) : dbh_(dbh) {}
    core::Result execute(const std::string &sql, const std::vector<core::Param> &params, bool,
                         bool want_rows) override {
        if (want_rows || sql.rfind("SELECT", 0) == 0)
            throw nativelock::Error("no result rows at request end");
        std::string text;
        std::size_t param = 0;
        for (char c : sql) {
            if (c != '?' || param >= params.size()) {
                text += c;
                continue;
            }
            const core::Param &p = params[param++];
            if (p.kind == core::Param::Kind::String) {
                zend_string *raw = zend_string_init(p.s.data(), p.s.size(), 0);
                zend_string *quoted = dbh_->methods->quoter(dbh_, raw, PDO_PARAM_STR);
                zend_string_release(raw);
                if (!quoted) throw nativelock::Error("quoting failed");
                text.append(ZSTR_VAL(quoted), ZSTR_LEN(quoted));
                zend_string_release(quoted);
            } else if (p.kind == core::Param::Kind::Int) {
                text += std::to_string(p.i);
            } else {
                text += std::to_string(p.d);
            }
        }
        zend_string *statement = zend_string_init(text.data(), text.size(), 0);
        zend_long affected = dbh_->methods->doer(dbh_, statement);
        zend_string_release(statement);
        if (affected < 0) throw nativelock::Error("statement failed");
        core::Result result;
        result.affected = static_cast<std::uint64_t>(affected);
        return result;
    }

  private:
    pdo_dbh_t *dbh_;
};

// pdo_mysql's handle begins with its connection (`MYSQL *server;`, a MYSQLND with mysqlnd, first
// in php_pdo_mysql_int.h, which is not installed).
struct PdoMysqlHandleHead {
    MYSQLND *server;
};

// In a forked child, at request end: the lock session's PDO shares its socket with the parent,
// and destroying it sends COM_QUIT on that socket, which ends the parent's session and every
// lock the parent holds. The child's copy of the descriptor is pointed at /dev/null first: the
// QUIT goes nowhere and only the child's copy is closed.
void detach_inherited_pdo(zend_object *object) noexcept {
    pdo_dbh_t *dbh = php_pdo_dbh_fetch_inner(object);
    if (!dbh || !dbh->driver || !dbh->driver_data || !dbh->driver->driver_name ||
        std::strcmp(dbh->driver->driver_name, "mysql") != 0 || dbh->is_persistent)
        return;
    MYSQLND *conn = static_cast<PdoMysqlHandleHead *>(dbh->driver_data)->server;
    if (!conn || !conn->data || !conn->data->vio || !conn->data->vio->data) return;
    php_stream *stream = conn->data->vio->data->stream;
    int fd = -1;
    if (!stream ||
        php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL,
                        reinterpret_cast<void **>(&fd), 0) != SUCCESS ||
        fd < 0)
        return;
    int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd < 0) return;
    ::dup2(null_fd, fd);
    ::close(null_fd);
}

// Request end for locks taken through a PDO: the PDO is alive (the request state holds it) and
// destructors and shutdown functions have all run. Never calls PHP userland.
void release_pdo_held() noexcept {
    RequestState &s = *state;
    zval *pdo = Z_TYPE(s.pdo) == IS_OBJECT ? &s.pdo : nullptr;
    if (pdo && s.held_pid == nativelock::process::current_pid()) {
        pdo_dbh_t *dbh = Z_PDO_DBH_P(pdo);
        if (dbh && dbh->driver && dbh->methods && dbh->methods->doer && dbh->methods->quoter) {
            PdoDriverSession driver(dbh);
            core::Protocol protocol(driver, quote_style());
            for (const std::string &name : s.held) {
                try {
                    protocol.release_at_end(name);
                } catch (...) {
                    // Not ours anymore, or the connection is gone: its locks go with it.
                }
            }
        }
    }
    s.held.clear();
    s.held_generations.clear();
}

void release_at_request_end(nativelock::php::RegistryEntry *) noexcept {
    if (!state) return;
    try {
        if (state->held_via_pdo) {
            release_pdo_held();
        } else {
            release_native_held();
        }
    } catch (...) {
    }
}

void track(const std::string &name) {
    RequestState &s = st();
    // A forked child inherits its parent's list: those locks are the parent's (never released
    // here), and the child's own must be filed under the child to be released at its end.
    if (!s.held.empty() && s.held_pid != nativelock::process::current_pid()) forget_held();
    bool via_pdo = s.pdo_mode || !s.configured;
    if (s.held.empty()) {
        s.held_via_pdo = via_pdo;
        s.held_pid = nativelock::process::current_pid();
        s.held_native = via_pdo ? nullptr : s.native;
        s.held_generation = via_pdo ? 0 : s.native->generation();
        s.entry.release = release_at_request_end;
        // Released in RSHUTDOWN, after destructors and every shutdown function (SPEC §2); locks
        // on a PDO through its driver, which the request state keeps alive until then.
        s.entry.phase = nativelock::php::kReleaseAtRequestShutdown;
        nativelock::php::registry_add(&s.entry);
    }
    s.held.push_back(name);
    s.held_generations.push_back(via_pdo ? 0 : s.native->generation());
}

void untrack(const std::string &name) {
    RequestState &s = st();
    for (std::size_t i = 0; i < s.held.size(); ++i) {
        if (s.held[i] == name) {
            s.held.erase(s.held.begin() + static_cast<std::ptrdiff_t>(i));
            if (i < s.held_generations.size())
                s.held_generations.erase(s.held_generations.begin() +
                                         static_cast<std::ptrdiff_t>(i));
            break;
        }
    }
    if (s.held.empty()) forget_held();
}

// Releases what this request holds (PHP context: may use the PDO). Returns how many.
int release_all_held() {
    RequestState &s = st();
    int released = 0;
    if (s.held.empty()) return 0;
    if (s.held_pid != nativelock::process::current_pid()) {
        forget_held();  // the parent's locks: not ours to release
        return 0;
    }
    if (!s.held_via_pdo) {
        released = static_cast<int>(s.held.size());
        release_native_held();
        forget_held();
        return released;
    }
    std::vector<std::string> names;
    names.swap(s.held);
    s.held_generations.clear();
    forget_held();
    if (s.pdo_session) {
        core::Protocol protocol(*s.pdo_session, quote_style());
        for (const std::string &name : names) {
            try {
                if (protocol.release_at_end(name)) ++released;
            } catch (const PhpBailout &) {
                throw;
            } catch (...) {
            }
        }
    }
    drop_previous();
    return released;
}

// --- error mapping at the entry points ------------------------------------------------

enum class Op { Lock, Unlock, AssertTTL, Repair, Other };

// A C++ exception taken apart inside its catch block (no PHP runs there): what kind of core
// error it was and its message.
struct CaughtSharedError {
    enum Kind { None, Bailout, Timeout, Repair, Acquire, BadName, Other } kind = None;
    std::string what;
};

CaughtSharedError classify_current() noexcept {
    CaughtSharedError caught;
    auto &kind = caught.kind;
    auto &what = caught.what;
    kind = CaughtSharedError::Other;
    using K = CaughtSharedError;
    try {
        try {
            throw;
        } catch (const PhpBailout &) {
            kind = K::Bailout;
        } catch (const core::LockTimeout &) {
            kind = K::Timeout;
        } catch (const core::TableRepairFailed &e) {
            kind = K::Repair;
            what = e.what();
        } catch (const core::AcquireFailed &e) {
            kind = K::Acquire;
            what = e.what();
        } catch (const nativelock::InvalidArgument &e) {
            kind = K::BadName;
            what = e.what();
        } catch (const std::exception &e) {
            what = e.what();
        } catch (...) {
            what = "unknown internal error";
        }
    } catch (...) {
    }
    return caught;
}

// Throws the package's PHP exception for a classified error (outside any catch block). Returns
// true if it was a bailout (the caller re-raises it once its C++ frames are gone).
bool throw_mapped(Op op, const CaughtSharedError &caught, zval *name, zval *extra) noexcept {
    using K = CaughtSharedError;
    const auto kind = caught.kind;
    const std::string &what = caught.what;
    constexpr auto Bailout = K::Bailout, Timeout = K::Timeout, Repair = K::Repair,
                   Acquire = K::Acquire, BadName = K::BadName;
    if (kind == Bailout) {
        drop_previous();
        return true;
    }
    zend_object *previous = take_previous();
    if (!previous && kind != Timeout && kind != Acquire && kind != BadName) {
        zend_class_entry *pce = kind == Repair ? ce_table_repair : spl_ce_RuntimeException;
        zval p;
        object_init_ex(&p, pce);
        zend_update_property_stringl(zend_ce_exception, Z_OBJ(p), "message", sizeof("message") - 1,
                                     what.data(), what.size());
        previous = Z_OBJ(p);
    }
    switch (op) {
        case Op::Lock:
            if (kind == Timeout) {
                if (previous) OBJ_RELEASE(previous);
                throw_lock_exception(ce_timeout, name, extra, "", nullptr);
            } else if (kind == Repair || kind == Acquire || kind == BadName) {
                throw_lock_exception(ce_acquire, name, nullptr, what, previous);
            } else {
                throw_lock_exception(ce_acquire, name, nullptr, "", previous);
            }
            break;
        case Op::Unlock:
            throw_lock_exception(ce_release, name, nullptr, kind == Repair ? what : std::string(),
                                 previous);
            break;
        case Op::AssertTTL:
            if (kind == Repair)
                throw_lock_exception(ce_exception, name, nullptr, what, previous);
            else
                throw_lock_exception(ce_remaining_ttl, name, extra, "", previous);
            break;
        case Op::Repair:
        case Op::Other:
            if (kind == BadName) {
                // Bad input outside a lock operation (configureConnection()'s $additionalDsn).
                if (previous) OBJ_RELEASE(previous);
                zend_value_error("%s", what.c_str());
            } else if (previous && kind != Repair && previous->ce != spl_ce_RuntimeException) {
                // A PHP exception (PDOException) propagates as the package lets it.
                zval ex;
                ZVAL_OBJ(&ex, previous);
                zend_throw_exception_object(&ex);
            } else {
                if (previous) OBJ_RELEASE(previous);
                zend_throw_exception(kind == Repair ? ce_table_repair : spl_ce_RuntimeException,
                                     what.c_str(), 0);
            }
            break;
    }
    return false;
}

bool valid_number(zval *z, double &out) {
    if (Z_TYPE_P(z) == IS_LONG) {
        out = static_cast<double>(Z_LVAL_P(z));
        return true;
    }
    if (Z_TYPE_P(z) == IS_DOUBLE) {
        out = Z_DVAL_P(z);
        return true;
    }
    if (Z_TYPE_P(z) == IS_STRING &&
        is_numeric_string(Z_STRVAL_P(z), Z_STRLEN_P(z), nullptr, &out, false)) {
        zend_long l;
        zend_uchar t = is_numeric_string(Z_STRVAL_P(z), Z_STRLEN_P(z), &l, &out, false);
        if (t == IS_LONG) out = static_cast<double>(l);
        return true;
    }
    if (Z_TYPE_P(z) == IS_NULL || Z_TYPE_P(z) == IS_FALSE || Z_TYPE_P(z) == IS_TRUE) {
        out = Z_TYPE_P(z) == IS_TRUE ? 1 : 0;
        return true;
    }
    return false;
}

// A timeout or TTL argument: a number (or numeric string, null, bool, as the package's untyped
// parameters took them); NaN and negative values are a ValueError.
bool seconds_argument(uint32_t arg, zval *value, double &out) {
    if (!valid_number(value, out)) {
        zend_argument_type_error(arg, "must be a number of seconds, %s given",
                                 zend_zval_type_name(value));
        return false;
    }
    if (std::isnan(out) || out < 0) {
        zend_argument_value_error(arg, "must be a number of seconds >= 0");
        return false;
    }
    return true;
}

// Drops the current session's locks (as dropping the package's PDO does) before switching.
void release_before_switch() {
    RequestState &s = st();
    if (!s.held.empty()) release_all_held();
    s.pdo_session.reset();
    if (Z_TYPE(s.pdo) == IS_OBJECT && s.pdo_pid != nativelock::process::current_pid()) {
        Z_ADDREF(s.pdo);  // inherited across fork: leak it rather than close the parent's session
    }
    zval_ptr_dtor(&s.pdo);
    ZVAL_UNDEF(&s.pdo);
    zval_ptr_dtor(&s.side_pdo);
    ZVAL_UNDEF(&s.side_pdo);
    s.native = nullptr;
}

}  // namespace

#define NL_SHARED_GUARD_BEGIN    \
    bool nl_bailout = false;     \
    CaughtSharedError nl_caught; \
    try {
#define NL_SHARED_GUARD_END(op, name, extra)                         \
    }                                                                \
    catch (...) {                                                    \
        nl_caught = classify_current();                              \
    }                                                                \
    if (nl_caught.kind != CaughtSharedError::None)                   \
        nl_bailout = throw_mapped((op), nl_caught, (name), (extra)); \
    if (nl_bailout) zend_bailout();                                  \
    if (EG(exception)) RETURN_THROWS();

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, configureConnection) {
    zval *host, *db, *user, *password, *charset = nullptr, *port = nullptr, *dsn = nullptr;
    ZEND_PARSE_PARAMETERS_START(4, 7)
    Z_PARAM_ZVAL(host)
    Z_PARAM_ZVAL(db)
    Z_PARAM_ZVAL(user)
    Z_PARAM_ZVAL(password)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(charset)
    Z_PARAM_ZVAL(port)
    Z_PARAM_ZVAL(dsn)
    ZEND_PARSE_PARAMETERS_END();
    NL_SHARED_GUARD_BEGIN
    release_before_switch();
    RequestState &s = st();
    s.clear_config();
    ZVAL_COPY(&s.config_host, host);
    ZVAL_COPY(&s.config_db, db);
    ZVAL_COPY(&s.config_user, user);
    ZVAL_COPY(&s.config_password, password);
    if (charset)
        ZVAL_COPY(&s.config_charset, charset);
    else
        ZVAL_STRING(&s.config_charset, "utf8mb4");
    if (port)
        ZVAL_COPY(&s.config_port, port);
    else
        ZVAL_NULL(&s.config_port);
    if (dsn)
        ZVAL_COPY(&s.config_dsn, dsn);
    else
        ZVAL_NULL(&s.config_dsn);
    core::ConnectParams p;
    p.host = str_of(host);
    p.database = str_of(db);
    p.user = str_of(user);
    p.password = str_of(password);
    p.charset = str_of(&s.config_charset);
    p.port =
        zend_is_true(&s.config_port) ? static_cast<unsigned>(zval_get_long(&s.config_port)) : 0;
    // The pdo driver hands $additionalDsn to PDO as it is; the native one takes what it can
    // honour and rejects the rest (InvalidArgument: a ValueError naming the key).
    if (zend_is_true(&s.config_dsn) && !driver_is_pdo())
        p.apply_additional_dsn(str_of(&s.config_dsn));
    p.connect_timeout = NATIVELOCK_G(mysql_connect_timeout);
    p.read_timeout = NATIVELOCK_G(mysql_read_timeout);
    s.params = p;
    s.configured = true;
    s.pdo_mode = driver_is_pdo();
    NL_SHARED_GUARD_END(Op::Other, nullptr, nullptr)
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, setConnection) {
    zval *pdo;
    zend_class_entry *pce = pdo_class();
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_OBJECT_OF_CLASS(pdo, pce)
    ZEND_PARSE_PARAMETERS_END();
    NL_SHARED_GUARD_BEGIN
    RequestState &s = st();
    if (Z_TYPE(s.pdo) == IS_OBJECT && Z_OBJ(s.pdo) == Z_OBJ_P(pdo) && s.pdo_mode) return;
    release_before_switch();
    ZVAL_COPY(&s.pdo, pdo);
    s.pdo_pid = nativelock::process::current_pid();
    s.pdo_mode = true;
    NL_SHARED_GUARD_END(Op::Other, nullptr, nullptr)
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, setQuoteStyle) {
    (void)return_value;
    zval *style;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(style)
    ZEND_PARSE_PARAMETERS_END();
    // switch() in the package compares loosely with 0 and 1.
    zval zero, one;
    ZVAL_LONG(&zero, 0);
    ZVAL_LONG(&one, 1);
    if (zend_compare(style, &zero) == 0) {
        st().quote_style = 0;
    } else if (zend_compare(style, &one) == 0) {
        st().quote_style = 1;
    } else {
        zend_string *text = zval_get_string(style);
        zend_throw_exception_ex(spl_ce_InvalidArgumentException, 0, "Invalid quote style \"%s\"",
                                ZSTR_VAL(text));
        zend_string_release(text);
    }
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, getConnection) {
    ZEND_PARSE_PARAMETERS_NONE();
    NL_SHARED_GUARD_BEGIN
    RequestState &s = st();
    zval *target = (s.pdo_mode || !s.configured) ? &s.pdo : &s.side_pdo;
    if (Z_TYPE_P(target) == IS_UNDEF) {
        open_pdo(target);
        if (target == &s.pdo) s.pdo_pid = nativelock::process::current_pid();
    }
    RETVAL_COPY(target);
    NL_SHARED_GUARD_END(Op::Other, nullptr, nullptr)
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, getTable) {
    ZEND_PARSE_PARAMETERS_NONE();
    RETURN_STRING("shared_locks");
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, lock) {
    zval *name, *timeout, *ttl;
    ZEND_PARSE_PARAMETERS_START(3, 3)
    Z_PARAM_ZVAL(name)
    Z_PARAM_ZVAL(timeout)
    Z_PARAM_ZVAL(ttl)
    ZEND_PARSE_PARAMETERS_END();
    double timeout_s = 0, ttl_s = 0;
    if (Z_TYPE_P(name) == IS_ARRAY || Z_TYPE_P(name) == IS_OBJECT) {
        zend_argument_type_error(1, "must be a string, %s given", zend_zval_type_name(name));
        RETURN_THROWS();
    }
    if (!seconds_argument(2, timeout, timeout_s) || !seconds_argument(3, ttl, ttl_s)) {
        RETURN_THROWS();
    }
    std::string lock_name = str_of(name);
    // INF and >= 1e9 s: no limit (Deadline::never()); the TTL is clamped to kMaxTtlSeconds.
    const auto deadline = nativelock::Deadline::after(timeout_s);
    const long long ttl_whole = core::ttl_seconds(ttl_s);
    // Signals do not end the wait (SPEC §2): the protocol waits server-side in bounded slices
    // and stops between them when a handler is due; the handlers run here, outside every C++
    // scope of the wait, and the wait goes on with the same deadline.
    for (;;) {
        bool interrupted = false;
        {
            NL_SHARED_GUARD_BEGIN
            core::Protocol protocol(session(), quote_style());
            try {
                protocol.lock(lock_name, deadline, ttl_whole, nativelock::php::interrupt_pending);
                track(lock_name);
            } catch (const core::WaitInterrupted &) {
                interrupted = true;
            }
            drop_previous();
            NL_SHARED_GUARD_END(Op::Lock, name, timeout)
        }
        if (!interrupted) break;
        switch (nativelock::php::run_pending_interrupts()) {
            case nativelock::php::AfterInterrupt::KeepWaiting:
                continue;
            case nativelock::php::AfterInterrupt::Exception:
                RETURN_THROWS();
            case nativelock::php::AfterInterrupt::Bailout:
                zend_bailout();
        }
    }
    object_init_ex(return_value, ce_handle);
    zend_update_property(ce_handle, Z_OBJ_P(return_value), "lockName", sizeof("lockName") - 1,
                         name);
}

namespace {

// Whether `name` was taken in this process on a native session that has since been replaced (a
// KILL, a server restart): its lock died with that session. Connection ids are reused after a
// restart, so only the session generation can tell.
bool held_by_an_earlier_session(const std::string &name) {
    RequestState &s = st();
    if (s.held_via_pdo || !s.native || s.held_pid != nativelock::process::current_pid())
        return false;
    for (std::size_t i = 0; i < s.held.size(); ++i) {
        if (s.held[i] == name) return s.held_generations[i] != s.native->generation();
    }
    return false;
}

void do_unlock(INTERNAL_FUNCTION_PARAMETERS, zval *name) {
    (void)execute_data;
    std::string lock_name = str_of(name);
    bool released = false;
    NL_SHARED_GUARD_BEGIN
    core::Protocol protocol(session(), quote_style());
    bool lost = held_by_an_earlier_session(lock_name);
    untrack(lock_name);
    if (!lost) released = protocol.unlock(lock_name);
    drop_previous();
    NL_SHARED_GUARD_END(Op::Unlock, name, nullptr)
    if (!released) throw_lock_exception(ce_release, name, nullptr, "", nullptr);
}

void do_assert_ttl(INTERNAL_FUNCTION_PARAMETERS, zval *name, zval *min_ttl) {
    (void)execute_data;
    std::string lock_name = str_of(name);
    double min = 1;
    zval default_ttl;
    ZVAL_LONG(&default_ttl, 1);
    if (!min_ttl) min_ttl = &default_ttl;
    if (!valid_number(min_ttl, min)) {
        zend_argument_type_error(2, "must be a number of seconds, %s given",
                                 zend_zval_type_name(min_ttl));
        RETURN_THROWS();
    }
    if (std::isnan(min)) {
        zend_argument_value_error(2, "must be a number of seconds, not NAN");
        RETURN_THROWS();
    }
    bool ok = false;
    NL_SHARED_GUARD_BEGIN
    core::Protocol protocol(session(), quote_style());
    ok = protocol.has_remaining_ttl(lock_name, core::ttl_seconds(min));
    drop_previous();
    NL_SHARED_GUARD_END(Op::AssertTTL, name, min_ttl)
    if (!ok) throw_lock_exception(ce_remaining_ttl, name, min_ttl, "", nullptr);
}

}  // namespace

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, unlock) {
    zval *name;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(name)
    ZEND_PARSE_PARAMETERS_END();
    do_unlock(INTERNAL_FUNCTION_PARAM_PASSTHRU, name);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, assertTTL) {
    zval *name, *min_ttl = nullptr;
    ZEND_PARSE_PARAMETERS_START(1, 2)
    Z_PARAM_ZVAL(name)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(min_ttl)
    ZEND_PARSE_PARAMETERS_END();
    do_assert_ttl(INTERNAL_FUNCTION_PARAM_PASSTHRU, name, min_ttl);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, tryRepairTable) {
    ZEND_PARSE_PARAMETERS_NONE();
    NL_SHARED_GUARD_BEGIN
    core::Protocol protocol(session(), quote_style());
    protocol.repair_table();
    drop_previous();
    NL_SHARED_GUARD_END(Op::Repair, nullptr, nullptr)
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLock, releaseAllHeldLocks) {
    ZEND_PARSE_PARAMETERS_NONE();
    int released = 0;
    NL_SHARED_GUARD_BEGIN
    if (state) released = release_all_held();
    NL_SHARED_GUARD_END(Op::Other, nullptr, nullptr)
    RETURN_LONG(released);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, __construct) {
    (void)return_value;
    zval *name;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_ZVAL(name)
    ZEND_PARSE_PARAMETERS_END();
    zend_update_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName", sizeof("lockName") - 1, name);
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, release) {
    ZEND_PARSE_PARAMETERS_NONE();
    zval rv;
    zval *name = zend_read_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName",
                                    sizeof("lockName") - 1, 1, &rv);
    zval copy;
    ZVAL_COPY_DEREF(&copy, name);
    do_unlock(INTERNAL_FUNCTION_PARAM_PASSTHRU, &copy);
    zval_ptr_dtor(&copy);
    if (EG(exception)) RETURN_THROWS();
    RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(ItsMieger_MySqlSharedLocks_SharedLockHandle, assertTTL) {
    zval *min_ttl = nullptr;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(min_ttl)
    ZEND_PARSE_PARAMETERS_END();
    zval rv;
    zval *name = zend_read_property(ce_handle, Z_OBJ_P(ZEND_THIS), "lockName",
                                    sizeof("lockName") - 1, 1, &rv);
    zval copy;
    ZVAL_COPY_DEREF(&copy, name);
    do_assert_ttl(INTERNAL_FUNCTION_PARAM_PASSTHRU, &copy, min_ttl);
    zval_ptr_dtor(&copy);
    if (EG(exception)) RETURN_THROWS();
    RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

// --- module hooks ---------------------------------------------------------------------

void nativelock_sharedlock_minit(int) {
    ce_exception =
        register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockException(zend_ce_exception);
    ce_acquire = register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockAcquireException(
        ce_exception);
    ce_timeout =
        register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockTimeoutException(ce_acquire);
    ce_release = register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockReleaseException(
        ce_exception);
    ce_remaining_ttl =
        register_class_ItsMieger_MySqlSharedLocks_Exception_SharedLockRemainingTTLException(
            ce_exception);
    ce_table_repair =
        register_class_ItsMieger_MySqlSharedLocks_Exception_TableRepairException(zend_ce_exception);
    ce_shared_lock = register_class_ItsMieger_MySqlSharedLocks_SharedLock();
    // configureConnection(…, #[\SensitiveParameter] $password, …): traces never show it.
    zend_add_parameter_attribute(static_cast<zend_function *>(zend_hash_str_find_ptr(
                                     &ce_shared_lock->function_table, "configureconnection",
                                     sizeof("configureconnection") - 1)),
                                 3, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
    ce_handle = register_class_ItsMieger_MySqlSharedLocks_SharedLockHandle();
    zend_register_class_alias("SharedLock", ce_shared_lock);
}

void nativelock_sharedlock_rshutdown() {
    // The registry drain (before this hook) released held locks; now drop the request state.
    if (state) {
        if (!state->held.empty()) release_at_request_end(&state->entry);
        nativelock::php::registry_remove(&state->entry);
        if (Z_TYPE(state->pdo) == IS_OBJECT && state->pdo_pid != nativelock::process::current_pid())
            detach_inherited_pdo(Z_OBJ(state->pdo));
        delete state;
        state = nullptr;
    }
    drop_previous();
}

void nativelock_sharedlock_mshutdown() {
    delete pool;
    pool = nullptr;
}

void nativelock_sharedlock_minfo() {
    php_info_print_table_start();
    php_info_print_table_row(2, "SharedLock drivers",
                             "native (MariaDB Connector/C, pooled per worker), pdo");
    php_info_print_table_row(2, "SharedLock driver (nativelock.sharedlock_driver)",
                             NATIVELOCK_G(sharedlock_driver));
    char count[32];
    snprintf(count, sizeof count, "%zu", pool ? pool->sessions.size() : static_cast<size_t>(0));
    php_info_print_table_row(2, "SharedLock pooled native sessions", count);
    php_info_print_table_end();
}
