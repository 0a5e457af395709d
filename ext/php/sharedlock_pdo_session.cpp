// The PDO sessions (pdo_session.h): every lock statement runs through the application's PDO, so
// locks share its session and transactions. PHP is only ever called inside zend_try; a bailout
// becomes PhpBailout, a PDOException a C++ SqlError (the PHP exception kept as `previous`), and
// any other throwable (a signal handler's exception or exit()) is deferred to the entry point.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "pdo_session.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "ext/mysqlnd/mysqlnd.h"
#include "ext/pdo/php_pdo_driver.h"
}

#include <fcntl.h>
#include <unistd.h>

#include <cstring>

#include "common/process.hpp"

namespace nativelock::php::sharedlock {

using nativelock::mysql::Param;
using nativelock::mysql::Result;
using nativelock::mysql::Row;
using nativelock::mysql::SqlError;

namespace {

constexpr zend_long kFetchNum = 3;  // PDO::FETCH_NUM

// Error details of a PDOException (errorInfo) or any Throwable (message, code).
void describe(zend_object *exception, unsigned &code, std::string &sqlstate, std::string &message) {
    zval rv;
    zval *info =
        zend_read_property(exception->ce, exception, "errorInfo", sizeof("errorInfo") - 1, 1, &rv);
    code = 0;
    sqlstate = "HY000";
    zval *msg =
        zend_read_property(zend_ce_exception, exception, "message", sizeof("message") - 1, 1, &rv);
    zend_string *m = zval_get_string(msg);
    message.assign(ZSTR_VAL(m), ZSTR_LEN(m));
    zend_string_release(m);
    if (info && Z_TYPE_P(info) == IS_ARRAY) {
        zval *state = zend_hash_index_find(Z_ARRVAL_P(info), 0);
        zval *driver_code = zend_hash_index_find(Z_ARRVAL_P(info), 1);
        if (state && Z_TYPE_P(state) == IS_STRING)
            sqlstate.assign(Z_STRVAL_P(state), Z_STRLEN_P(state));
        if (driver_code) code = static_cast<unsigned>(zval_get_long(driver_code));
    }
}

[[noreturn]] void throw_from_error_info(zval *info) {
    unsigned code = 0;
    std::string sqlstate = "HY000", message = "PDO error";
    if (Z_TYPE_P(info) == IS_ARRAY) {
        zval *state = zend_hash_index_find(Z_ARRVAL_P(info), 0);
        zval *driver_code = zend_hash_index_find(Z_ARRVAL_P(info), 1);
        zval *text = zend_hash_index_find(Z_ARRVAL_P(info), 2);
        if (state && Z_TYPE_P(state) == IS_STRING)
            sqlstate.assign(Z_STRVAL_P(state), Z_STRLEN_P(state));
        if (driver_code) code = static_cast<unsigned>(zval_get_long(driver_code));
        if (text && Z_TYPE_P(text) == IS_STRING)
            message =
                "SQLSTATE[" + sqlstate + "]: " + std::string(Z_STRVAL_P(text), Z_STRLEN_P(text));
    }
    throw SqlError(code, sqlstate, message);
}

}  // namespace

void stash_exception(zend_object *exception) {
    if (NATIVELOCK_G(sharedlock_stashed_previous))
        OBJ_RELEASE(NATIVELOCK_G(sharedlock_stashed_previous));
    NATIVELOCK_G(sharedlock_stashed_previous) = exception;
}

zend_object *take_previous() {
    zend_object *p = NATIVELOCK_G(sharedlock_stashed_previous);
    NATIVELOCK_G(sharedlock_stashed_previous) = nullptr;
    return p;
}

void drop_previous() {
    if (NATIVELOCK_G(sharedlock_stashed_previous))
        OBJ_RELEASE(NATIVELOCK_G(sharedlock_stashed_previous));
    NATIVELOCK_G(sharedlock_stashed_previous) = nullptr;
}

void defer_throwable(zend_object *throwable) {
    zend_object *&deferred = NATIVELOCK_G(sharedlock_deferred_throwable);
    // The first one wins, as in PHP the first throw stops what follows; exit() always wins.
    if (deferred && !zend_is_unwind_exit(throwable)) {
        OBJ_RELEASE(throwable);
        return;
    }
    if (deferred) OBJ_RELEASE(deferred);
    deferred = throwable;
}

bool has_deferred_throwable() {
    return NATIVELOCK_G(sharedlock_deferred_throwable) != nullptr;
}

bool rethrow_deferred_throwable() {
    zend_object *throwable = NATIVELOCK_G(sharedlock_deferred_throwable);
    if (!throwable) return false;
    NATIVELOCK_G(sharedlock_deferred_throwable) = nullptr;
    drop_previous();
    if (EG(exception)) zend_clear_exception();
    zend_throw_exception_internal(throwable);  // takes the reference
    return true;
}

void drop_deferred_throwable() {
    if (NATIVELOCK_G(sharedlock_deferred_throwable))
        OBJ_RELEASE(NATIVELOCK_G(sharedlock_deferred_throwable));
    NATIVELOCK_G(sharedlock_deferred_throwable) = nullptr;
}

zend_object *pdo_exception_or_defer(const zval *retval) {
    zend_object *exception = EG(exception);
    GC_ADDREF(exception);
    zend_clear_exception();
    // A return value means the call completed and PHP code that ran after it (a signal
    // handler) threw: the caller keeps the result so that the statement sequence stays
    // consistent, and the entry point throws it later.
    if (Z_TYPE_P(retval) != IS_UNDEF) {
        defer_throwable(exception);
        return nullptr;
    }
    if (!instanceof_function(exception->ce, php_pdo_get_exception())) {
        defer_throwable(exception);
        throw ThrowablePending();
    }
    return exception;
}

CallStatus guarded_call(zend_object *object, zend_function *fn, zval *retval, uint32_t argc,
                        zval *argv) {
    volatile bool bailed = false;
    ZVAL_UNDEF(retval);
    // PHP runs pending signal handlers inside this call, and a handler may call SharedLock
    // itself. That nested call must neither take as its own nor drop the exception an earlier
    // statement of ours stashed (the expected error of a wait's slice, say): it is set aside
    // for the call and put back after it. What a nested call left behind is its own.
    zend_object *outer = take_previous();
    zend_try {
        zend_call_known_instance_method(fn, object, retval, argc, argv);
    }
    zend_catch {
        bailed = true;
    }
    zend_end_try();
    drop_previous();
    NATIVELOCK_G(sharedlock_stashed_previous) = outer;
    if (bailed) return CallStatus::Bailout;
    if (EG(exception)) return CallStatus::Exception;
    return CallStatus::Ok;
}

void call_method(zend_object *object, const char *method, zval *retval, uint32_t argc, zval *argv) {
    zend_function *fn = static_cast<zend_function *>(
        zend_hash_str_find_ptr_lc(&object->ce->function_table, method, strlen(method)));
    if (!fn)
        throw nativelock::Error(std::string("method ") + ZSTR_VAL(object->ce->name) +
                                "::" + method + "() not found");
    switch (guarded_call(object, fn, retval, argc, argv)) {
        case CallStatus::Ok:
            return;
        case CallStatus::Bailout:
            zval_ptr_dtor(retval);
            ZVAL_UNDEF(retval);
            throw PhpBailout();
        case CallStatus::Exception: {
            zend_object *exception = pdo_exception_or_defer(retval);
            if (!exception) return;
            unsigned code;
            std::string sqlstate, message;
            describe(exception, code, sqlstate, message);
            stash_exception(exception);
            throw SqlError(code, sqlstate, message);
        }
    }
}

namespace {

// Throws the SqlError that $object->errorInfo() describes (a PDO or a PDOStatement); the array
// is released outside the catch block.
[[noreturn]] void throw_error_of(zend_object *object) {
    zval info;
    call_method(object, "errorInfo", &info, 0, nullptr);
    std::exception_ptr failure;
    try {
        throw_from_error_info(&info);
    } catch (...) {
        failure = std::current_exception();
    }
    zval_ptr_dtor(&info);
    std::rethrow_exception(failure);
}

}  // namespace

PdoSession::PdoSession(zend_object *pdo) : pdo_(pdo) {
    GC_ADDREF(pdo_);
    zend_hash_init(&statements_, 8, nullptr, ZVAL_PTR_DTOR, 0);
}

PdoSession::~PdoSession() {
    zend_hash_destroy(&statements_);
    if (pdo_) OBJ_RELEASE(pdo_);
}

namespace {

// A PDO in ERRMODE_WARNING reports errors as exceptions while nativelock's statement runs (the
// protocol's expected failures, a duplicate row while contended, must not show as warnings,
// which frameworks turn into exceptions), then warns again. Other modes are left alone.
class NoWarnings {
  public:
    explicit NoWarnings(pdo_dbh_t *dbh) : dbh_(dbh), saved_(dbh->error_mode) {
        if (saved_ == PDO_ERRMODE_WARNING) dbh_->error_mode = PDO_ERRMODE_EXCEPTION;
    }
    ~NoWarnings() {
        if (saved_ == PDO_ERRMODE_WARNING) dbh_->error_mode = saved_;
    }
    NoWarnings(const NoWarnings &) = delete;
    NoWarnings &operator=(const NoWarnings &) = delete;

  private:
    pdo_dbh_t *dbh_;
    enum pdo_error_mode saved_;
};

}  // namespace

Result PdoSession::execute(const std::string &sql, const std::vector<Param> &params, bool prepared,
                           bool want_rows) {
    struct Running {
        int &depth;
        explicit Running(int &d) : depth(d) { ++depth; }
        ~Running() { --depth; }
    } running(running_);
    statement_owner_ = nativelock::process::current_tag();
    NoWarnings errors(php_pdo_dbh_fetch_inner(pdo_));
    return run_statement(sql, params, prepared, want_rows);
}

void PdoSession::call(zend_object *object, const char *method, zval *retval, uint32_t argc,
                      zval *argv) {
    std::exception_ptr failure;
    try {
        call_method(object, method, retval, argc, argv);
    } catch (...) {
        failure = std::current_exception();
    }
    if (nativelock::process::current_tag() != statement_owner_) {
        // A signal handler forked inside the call: this is the child, on its parent's socket.
        // Cut off before anything else is sent (the statement's close included), then the
        // call's result (a statement) is let go.
        detach_inherited_pdo(pdo_);
        if (!failure) {
            zval_ptr_dtor(retval);
            ZVAL_UNDEF(retval);
        }
        throw nativelock::Error(
            "a signal handler forked during a MySQL statement: the child does not go on with "
            "its parent's session");
    }
    if (failure) std::rethrow_exception(failure);
}

Result PdoSession::run_statement(const std::string &sql, const std::vector<Param> &params,
                                 bool prepared, bool want_rows) {
    zval stmt;
    ZVAL_UNDEF(&stmt);
    // A statement run from inside another one (a signal handler's lock(), which PHP runs right
    // after one of our PDO calls returns) is prepared apart: executing the shared one again
    // would take the rows the interrupted statement has yet to fetch.
    const bool shared = prepared && running_ == 1;
    zval *cached = shared ? zend_hash_str_find(&statements_, sql.data(), sql.size()) : nullptr;
    if (cached) {
        ZVAL_COPY(&stmt, cached);
    } else {
        zval arg;
        ZVAL_STRINGL(&arg, sql.data(), sql.size());
        // PHP values are released outside the catch block (a destructor may run user code),
        // then the error goes on.
        std::exception_ptr failure;
        try {
            call(pdo_, "prepare", &stmt, 1, &arg);
        } catch (...) {
            failure = std::current_exception();
        }
        zval_ptr_dtor(&arg);
        if (failure) std::rethrow_exception(failure);
        if (Z_TYPE(stmt) != IS_OBJECT) {
            zval_ptr_dtor(&stmt);
            throw_error_of(pdo_);
        }
        if (shared) {
            Z_ADDREF(stmt);
            zend_hash_str_update(&statements_, sql.data(), sql.size(), &stmt);
        }
    }
    zend_object *st = Z_OBJ(stmt);
    Result result;
    zval args, ret;
    array_init_size(&args, static_cast<uint32_t>(params.size()));
    for (const Param &p : params) {
        switch (p.kind) {
            case Param::Kind::String:
                add_next_index_stringl(&args, p.s.data(), p.s.size());
                break;
            case Param::Kind::Int:
                add_next_index_long(&args, static_cast<zend_long>(p.i));
                break;
            case Param::Kind::Double:
                add_next_index_double(&args, p.d);
                break;
        }
    }
    std::exception_ptr failure;
    try {
        call(st, "execute", &ret, 1, &args);
        zval_ptr_dtor(&args);
        ZVAL_UNDEF(&args);
        bool ok = zend_is_true(&ret);
        zval_ptr_dtor(&ret);
        if (!ok) {
            throw_error_of(st);
        }
        // The protocol's statements that return rows are SELECT and REPAIR TABLE.
        bool returns_rows = sql.compare(0, 6, "SELECT") == 0 || sql.compare(0, 6, "REPAIR") == 0;
        zend_long columns = 0;
        if (returns_rows) {
            call(st, "columnCount", &ret, 0, nullptr);
            columns = zval_get_long(&ret);
            zval_ptr_dtor(&ret);
        } else {
            call(st, "rowCount", &ret, 0, nullptr);
            result.affected = static_cast<std::uint64_t>(zval_get_long(&ret));
            zval_ptr_dtor(&ret);
        }
        if (columns > 0) {
            if (want_rows && !prepared) {
                for (zend_long i = 0; i < columns; ++i) {
                    zval index, meta;
                    ZVAL_LONG(&index, i);
                    call(st, "getColumnMeta", &meta, 1, &index);
                    std::string name;
                    if (Z_TYPE(meta) == IS_ARRAY) {
                        zval *n = zend_hash_str_find(Z_ARRVAL(meta), "name", 4);
                        if (n && Z_TYPE_P(n) == IS_STRING)
                            name.assign(Z_STRVAL_P(n), Z_STRLEN_P(n));
                    }
                    zval_ptr_dtor(&meta);
                    result.columns.push_back(name);
                }
            }
            zval mode;
            ZVAL_LONG(&mode, kFetchNum);
            call(st, "fetchAll", &ret, 1, &mode);
            if (Z_TYPE(ret) == IS_ARRAY) {
                zval *row;
                ZEND_HASH_FOREACH_VAL(Z_ARRVAL(ret), row) {
                    Row r;
                    if (Z_TYPE_P(row) == IS_ARRAY) {
                        zval *cell;
                        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(row), cell) {
                            if (Z_TYPE_P(cell) == IS_NULL) {
                                r.push_back(std::nullopt);
                            } else if (Z_TYPE_P(cell) == IS_FALSE || Z_TYPE_P(cell) == IS_TRUE) {
                                r.push_back(std::string(Z_TYPE_P(cell) == IS_TRUE ? "1" : "0"));
                            } else {
                                zend_string *s = zval_get_string(cell);
                                r.push_back(std::string(ZSTR_VAL(s), ZSTR_LEN(s)));
                                zend_string_release(s);
                            }
                        }
                        ZEND_HASH_FOREACH_END();
                    }
                    result.rows.push_back(std::move(r));
                }
                ZEND_HASH_FOREACH_END();
            }
            zval_ptr_dtor(&ret);
            if (!result.rows.empty()) {
                result.has_row = true;
                if (!result.rows[0].empty()) result.value = result.rows[0][0];
            }
        }
    } catch (...) {
        failure = std::current_exception();
    }
    zval_ptr_dtor(&args);
    zval_ptr_dtor(&stmt);
    if (failure) std::rethrow_exception(failure);
    return result;
}

namespace {

namespace core = nativelock::mysql;

// The PDO's own driver, for request end: quoting and statements through pdo_dbh_t's methods,
// with no PHP method call (a user subclass of PDO cannot run here) and no exception. Reads no
// result rows: a statement that needs one reports an error, which ends that release.
class DriverSession : public core::Session {
  public:
    explicit DriverSession(pdo_dbh_t *dbh) : dbh_(dbh) {}
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

}  // namespace

std::unique_ptr<core::Session> driver_session(zend_object *pdo) {
    pdo_dbh_t *dbh = php_pdo_dbh_fetch_inner(pdo);
    if (!dbh || !dbh->driver || !dbh->methods || !dbh->methods->doer || !dbh->methods->quoter)
        return nullptr;
    return std::make_unique<DriverSession>(dbh);
}

bool is_mysql_pdo(zend_object *object) {
    // Looked up by name: pdo is an optional dependency, and without it there is no PDO object.
    auto *pdo_ce =
        static_cast<zend_class_entry *>(zend_hash_str_find_ptr(CG(class_table), "pdo", 3));
    if (!pdo_ce || !instanceof_function(object->ce, pdo_ce)) return false;
    pdo_dbh_t *dbh = php_pdo_dbh_fetch_inner(object);
    return dbh && dbh->driver && dbh->driver->driver_name &&
           std::strcmp(dbh->driver->driver_name, "mysql") == 0;
}

// In a forked child, at request end: the lock session's PDO shares its socket with the parent,
// and destroying it sends COM_QUIT on that socket, which ends the parent's session and every
// lock the parent holds. The child's copy of the descriptor is pointed at /dev/null first, so
// only the child's copy is closed, and the connection is marked as already quit.
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
    // And mysqlnd is told the session is over (as after its own QUIT): it sends nothing more,
    // statements included, and so reads no error it would have to keep.
    conn->data->state.m->set(&conn->data->state, CONN_QUIT_SENT);
}

}  // namespace nativelock::php::sharedlock
