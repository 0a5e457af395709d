#include "mysql/native_session.hpp"

#include <fcntl.h>
#include <mysql.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/process.hpp"
#include "common/random.hpp"

namespace nativelock::mysql {

namespace {

bool is_connection_error(unsigned code) {
    // Client errors (CR_*: 2000-2999), killed (1927 ER_CONNECTION_KILLED), server shutdown
    // (1053), idle timeout (4031).
    return (code >= 2000 && code < 3000) || code == 1927 || code == 1053 || code == 4031;
}

constexpr unsigned kErQueryInterrupted = 1317;

// A literal the server reads as it reads the bound parameter where the statements use one (the
// user-lock functions, which key a name by its bytes): a string as its bytes in hex,
// introduced as binary (no escaping whatever the sql_mode, and no check against a character
// set that a bound parameter does not get either), numbers in decimal.
std::string literal(const Param &p) {
    switch (p.kind) {
        case Param::Kind::Int:
            return std::to_string(p.i);
        case Param::Kind::Double: {
            // In whole and thousandths, by integers: printf's "%f" writes a comma under a
            // locale that PHP's setlocale() may have set.
            if (!(std::fabs(p.d) < 1e15))
                throw InvalidArgument("a statement parameter is out of range");
            const long long ms = std::llround(std::fabs(p.d) * 1000);
            std::string frac = std::to_string(ms % 1000);
            return (p.d < 0 && ms != 0 ? "-" : "") + std::to_string(ms / 1000) + "." +
                   std::string(3 - frac.size(), '0') + frac;
        }
        case Param::Kind::String:
            break;
    }
    static const char digits[] = "0123456789abcdef";
    std::string out = "_binary X'";
    for (unsigned char c : p.s) {
        out += digits[c >> 4];
        out += digits[c & 0xF];
    }
    return out + "'";
}

}  // namespace

std::string splice_params(const std::string &sql, const std::vector<Param> &params) {
    std::string out;
    std::size_t next = 0;
    char quote = 0;  // inside '…', "…" or `…` (a doubled quote toggles twice)
    for (char c : sql) {
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"' || c == '`') {
            quote = c;
        } else if (c == '?') {
            if (next >= params.size()) throw InvalidArgument("more placeholders than parameters");
            out += literal(params[next++]);
            continue;
        }
        out += c;
    }
    if (next != params.size()) throw InvalidArgument("more parameters than placeholders");
    return out;
}

std::string ConnectParams::key() const {
    std::string k;
    for (const std::string *s : {&host, &user, &password, &database, &charset, &unix_socket}) {
        k += std::to_string(s->size());
        k += ':';
        k += *s;
    }
    k += std::to_string(port);
    return k;
}

void ConnectParams::apply_additional_dsn(std::string_view dsn) {
    while (!dsn.empty()) {
        std::size_t end = dsn.find(';');
        std::string_view item = dsn.substr(0, end);
        dsn = end == std::string_view::npos ? std::string_view() : dsn.substr(end + 1);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        if (item.empty()) continue;
        std::size_t eq = item.find('=');
        std::string key(item.substr(0, eq));
        if (eq == std::string_view::npos)
            throw InvalidArgument("additionalDsn: \"" + key + "\" is not a key=value pair");
        std::string value(item.substr(eq + 1));
        if (key == "unix_socket") {
            unix_socket = value;
        } else if (key == "host") {
            host = value;
        } else if (key == "dbname") {
            database = value;
        } else if (key == "charset") {
            charset = value;
        } else if (key == "port") {
            char *stop = nullptr;
            long n = value.empty() ? 0 : std::strtol(value.c_str(), &stop, 10);
            if (value.empty() || *stop != '\0' || n < 1 || n > 65535)
                throw InvalidArgument("additionalDsn: port must be a number from 1 to 65535");
            port = static_cast<unsigned>(n);
        } else {
            throw InvalidArgument("additionalDsn: \"" + key +
                                  "\" is not supported by the native driver (host, port, dbname, "
                                  "charset, unix_socket are; nativelock.sharedlock_driver=pdo "
                                  "passes the DSN to PDO as it is)");
        }
    }
}

NativeSession::NativeSession(ConnectParams params) : params_(std::move(params)) {}

NativeSession::~NativeSession() {
    disconnect();
}

double NativeSession::max_wait_seconds() const {
    return params_.read_timeout > 2 ? params_.read_timeout - 1 : params_.read_timeout / 2;
}

unsigned long NativeSession::connection_id() const {
    return conn_ ? mysql_thread_id(conn_) : 0;
}

void NativeSession::disconnect() noexcept {
    if (!conn_) return;
    if (owner_ != process::current_tag()) {
        // Inherited across fork: the socket belongs to the parent. Point our descriptor at
        // /dev/null so that closing sends nothing on the parent's connection.
        int fd = static_cast<int>(mysql_get_socket(conn_));
        int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        if (fd >= 0 && null_fd >= 0) ::dup2(null_fd, fd);
        if (null_fd >= 0) ::close(null_fd);
    }
    side_.reset();
    for (auto &entry : statements_) mysql_stmt_close(entry.second);
    statements_.clear();
    mysql_close(conn_);
    conn_ = nullptr;
}

void NativeSession::fail(unsigned code, const char *sqlstate, const char *message) {
    std::string text = message ? message : "unknown MySQL error";
    if (is_connection_error(code)) {
        disconnect();
        throw SessionLost(code, "MySQL error " + std::to_string(code) + ": " + text);
    }
    throw SqlError(code, sqlstate ? sqlstate : "HY000",
                   "SQLSTATE[" + std::string(sqlstate ? sqlstate : "HY000") + "]: " + text);
}

std::uint64_t NativeSession::ensure_connected() {
    if (conn_ && owner_ != process::current_tag()) disconnect();
    if (conn_) {
        const auto now = std::chrono::steady_clock::now();
        // The shim asks before each call, the statement asks again, a grant's row follows its
        // reply: a socket known quiet a moment ago is not polled again. A server that closes
        // it within that moment is found by the statement (SessionLost, no reconnect), as one
        // that closes it just after a poll always was.
        if (now - quiet_at_ >= kRecheckAfter) {
            // A killed or restarted server leaves the socket readable (EOF or an error packet)
            // while we are idle: notice it without a round trip.
            // Only readable means gone: a signal (EINTR) must not drop a live session, and
            // with it every GET_LOCK it holds.
            pollfd p{static_cast<int>(mysql_get_socket(conn_)), POLLIN, 0};
            ++liveness_polls_;
            int ready;
            do {
                ready = ::poll(&p, 1, 0);
            } while (ready < 0 && errno == EINTR);
            if (ready > 0)
                disconnect();
            else if (ready == 0)
                quiet_at_ = now;
        }
    }
    if (conn_) return generation_;

    MYSQL *conn = mysql_init(nullptr);
    if (!conn) throw ConnectionError("mysql_init() failed: out of memory");
    unsigned connect_timeout = static_cast<unsigned>(std::ceil(params_.connect_timeout));
    unsigned read_timeout = static_cast<unsigned>(std::ceil(params_.read_timeout));
    unsigned write_timeout = read_timeout;
    my_bool off = 0;
    mysql_options(conn, MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
    mysql_options(conn, MYSQL_OPT_READ_TIMEOUT, &read_timeout);
    mysql_options(conn, MYSQL_OPT_WRITE_TIMEOUT, &write_timeout);
    mysql_options(conn, MYSQL_OPT_RECONNECT, &off);
    if (!params_.charset.empty())
        mysql_options(conn, MYSQL_SET_CHARSET_NAME, params_.charset.c_str());
    const char *host = params_.host.empty() ? nullptr : params_.host.c_str();
    const char *socket = params_.unix_socket.empty() ? nullptr : params_.unix_socket.c_str();
    const char *db = params_.database.empty() ? nullptr : params_.database.c_str();
    if (!mysql_real_connect(conn, host, params_.user.c_str(), params_.password.c_str(), db,
                            params_.port, socket, 0)) {
        std::string what =
            "Cannot connect to MySQL at " +
            (socket ? params_.unix_socket
                    : params_.host + ":" + std::to_string(params_.port ? params_.port : 3306)) +
            ": " + mysql_error(conn) + " (" + std::to_string(mysql_errno(conn)) + ")";
        unsigned code = mysql_errno(conn);
        mysql_close(conn);
        throw SessionLost(code, what);
    }
    ++round_trips_;
    // The socket must not leak into exec()ed children.
    int fd = static_cast<int>(mysql_get_socket(conn));
    if (fd >= 0) ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
    conn_ = conn;
    owner_ = process::current_tag();
    mark_quiet();
    ++generation_;
    return generation_;
}

Result NativeSession::text_result() {
    Result result;
    MYSQL_RES *res = mysql_store_result(conn_);
    if (!res) {
        if (mysql_field_count(conn_) != 0)
            fail(mysql_errno(conn_), mysql_sqlstate(conn_), mysql_error(conn_));
        result.affected = mysql_affected_rows(conn_);
        result.insert_id = mysql_insert_id(conn_);
        mark_quiet();
        return result;
    }
    unsigned n = mysql_num_fields(res);
    MYSQL_FIELD *fields = mysql_fetch_fields(res);
    for (unsigned i = 0; i < n; ++i) result.columns.emplace_back(fields[i].name);
    while (MYSQL_ROW row = mysql_fetch_row(res)) {
        unsigned long *lengths = mysql_fetch_lengths(res);
        Row r;
        for (unsigned i = 0; i < n; ++i)
            r.push_back(row[i] ? std::optional<std::string>(std::string(row[i], lengths[i]))
                               : std::nullopt);
        result.rows.push_back(std::move(r));
    }
    mysql_free_result(res);
    if (!result.rows.empty()) {
        result.has_row = true;
        if (!result.rows[0].empty()) result.value = result.rows[0][0];
    }
    mark_quiet();
    return result;
}

std::string NativeSession::identity_lock() {
    // Asked about the session that holds a lock: never a new one (a reconnect here would take
    // an identity for a session that holds nothing).
    if (!conn_ || owner_ != process::current_tag())
        throw SessionLost(2006, "MySQL session gone before its identity lock was taken");
    const std::uint64_t generation = generation_;
    if (identity_generation_ == generation && !identity_.empty()) return identity_;
    std::string name = "nativelock:session:" + random::hex_token(12);
    Result got = execute("SELECT GET_LOCK(?, 0)", {Param::str(name)}, true, false);
    // A session replaced meanwhile (a silent reconnect) is not the one asked about.
    if (generation_ != generation)
        throw SessionLost(2013, "MySQL session replaced while taking its identity lock");
    // A free name of our own is granted at once; NULL is an error of the server's.
    if (got.value != std::optional<std::string>("1"))
        throw ProtocolError("MySQL did not grant the session's identity lock " + name);
    identity_ = std::move(name);
    identity_generation_ = generation;
    return identity_;
}

Session *NativeSession::side_session() {
    const auto now = std::chrono::steady_clock::now();
    if (side_failed_at_ && now - *side_failed_at_ < std::chrono::seconds(1)) return nullptr;
    try {
        if (!side_) side_ = std::make_unique<NativeSession>(params_);
        side_->ensure_connected();
        side_failed_at_.reset();
        return side_.get();
    } catch (...) {
        side_failed_at_ = now;
        return nullptr;
    }
}

bool NativeSession::cancel_running_statement() noexcept {
    try {
        // KILL QUERY of one's own user's session needs no privilege. Arriving after the
        // statement ended, it ends nothing: MariaDB clears it before the next statement.
        Session *side = side_session();
        if (!side) return false;
        side->execute("KILL QUERY " + std::to_string(connection_id()), {}, false, false);
        return true;
    } catch (...) {
        return false;
    }
}

Result NativeSession::execute_waiting(const std::string &sql, const std::vector<Param> &params,
                                      const std::function<bool()> &stop, bool *cancelled) {
    *cancelled = false;
    ensure_connected();
    quiet_at_ = {};  // a reply is coming: quiet again only once it is read
    // The side session is opened only by a wait that lasts (a look, a cancel) and closed with
    // it: a process holds a second connection only while it waits long.
    struct CloseSide {
        std::unique_ptr<NativeSession> &side;
        ~CloseSide() { side.reset(); }
    } close_side{side_};
    // A server's max_statement_time would end a long wait early, with GET_LOCK NULL: lifted
    // for this statement (MariaDB's executable comment; other servers skip it).
    const std::string text =
        "/*M!100102 SET STATEMENT max_statement_time=0 FOR */ " + splice_params(sql, params);
    ++round_trips_;
    // Sent whole, then awaited in slices: the server keeps our place in GET_LOCK's line for
    // the whole wait (a wait re-sent every slice would rejoin the line at its end).
    if (mysql_send_query(conn_, text.data(), text.size()) != 0)
        fail(mysql_errno(conn_), mysql_sqlstate(conn_), mysql_error(conn_));
    const int fd = static_cast<int>(mysql_get_socket(conn_));
    // The statement's own wait is bounded below the read timeout (max_wait_seconds()): a
    // reply later than that means a hung server or network, as a blocking read would say.
    const auto give_up_at = std::chrono::steady_clock::now() +
                            std::chrono::duration<double>(std::max(params_.read_timeout, 1.0));
    bool stopping = false;
    for (;;) {
        if (stop && !stopping) {
            try {
                stopping = stop();
            } catch (...) {
                // The reply must still be read, or the session is out of step: wait on.
            }
        }
        // KILL QUERY is sent again every slice until the reply comes: one that reaches the
        // server before the statement has begun is dropped (MariaDB clears a pending KILL
        // QUERY as a statement begins), and one that could not be sent is tried again. Each
        // is answered before we read on, so none can reach our next statement.
        if (stopping && cancel_running_statement()) *cancelled = true;
        // A PHP signal (pcntl) interrupts poll() at once; otherwise `stop` is asked every slice.
        pollfd p{fd, POLLIN, 0};
        int ready = ::poll(&p, 1, 200);
        if (ready > 0 || (ready < 0 && errno != EINTR)) break;
        if (std::chrono::steady_clock::now() >= give_up_at) {
            disconnect();
            throw SessionLost(2013, "Lost connection to MySQL server during query (read timeout)");
        }
    }
    // A wait ended by our KILL QUERY may report the interrupt as an error rather than NULL.
    try {
        if (mysql_read_query_result(conn_) != 0)
            fail(mysql_errno(conn_), mysql_sqlstate(conn_), mysql_error(conn_));
        return text_result();
    } catch (const SqlError &e) {
        if (*cancelled && e.code() == kErQueryInterrupted) return Result();
        throw;
    }
}

MYSQL_STMT *NativeSession::statement(const std::string &sql) {
    auto found = statements_.find(sql);
    if (found != statements_.end()) return found->second;
    MYSQL_STMT *stmt = mysql_stmt_init(conn_);
    if (!stmt) throw ConnectionError("mysql_stmt_init() failed");
    ++round_trips_;
    if (mysql_stmt_prepare(stmt, sql.data(), sql.size()) != 0) {
        unsigned code = mysql_stmt_errno(stmt);
        std::string sqlstate = mysql_stmt_sqlstate(stmt), message = mysql_stmt_error(stmt);
        mysql_stmt_close(stmt);
        fail(code, sqlstate.c_str(), message.c_str());
    }
    statements_.emplace(sql, stmt);
    return stmt;
}

Result NativeSession::execute(const std::string &sql, const std::vector<Param> &params,
                              bool prepared, bool want_rows) {
    ensure_connected();
    quiet_at_ = {};  // a reply is coming: quiet again only once it is read
    Result result;
    if (!prepared) {
        ++round_trips_;
        if (mysql_real_query(conn_, sql.data(), sql.size()) != 0)
            fail(mysql_errno(conn_), mysql_sqlstate(conn_), mysql_error(conn_));
        return text_result();
    }

    MYSQL_STMT *stmt = statement(sql);
    std::vector<MYSQL_BIND> binds(params.size());
    std::vector<unsigned long> lengths(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
        MYSQL_BIND &b = binds[i];
        std::memset(&b, 0, sizeof b);
        const Param &p = params[i];
        switch (p.kind) {
            case Param::Kind::String:
                b.buffer_type = MYSQL_TYPE_STRING;
                b.buffer = const_cast<char *>(p.s.data());
                lengths[i] = p.s.size();
                b.length = &lengths[i];
                b.buffer_length = p.s.size();
                break;
            case Param::Kind::Int:
                b.buffer_type = MYSQL_TYPE_LONGLONG;
                b.buffer = const_cast<long long *>(&p.i);
                break;
            case Param::Kind::Double:
                b.buffer_type = MYSQL_TYPE_DOUBLE;
                b.buffer = const_cast<double *>(&p.d);
                break;
        }
    }
    if (!binds.empty() && mysql_stmt_bind_param(stmt, binds.data()) != 0)
        fail(mysql_stmt_errno(stmt), mysql_stmt_sqlstate(stmt), mysql_stmt_error(stmt));
    ++round_trips_;
    if (mysql_stmt_execute(stmt) != 0)
        fail(mysql_stmt_errno(stmt), mysql_stmt_sqlstate(stmt), mysql_stmt_error(stmt));
    unsigned n = mysql_stmt_field_count(stmt);
    if (n == 0) {
        result.affected = mysql_stmt_affected_rows(stmt);
        result.insert_id = mysql_stmt_insert_id(stmt);
        mark_quiet();
        return result;
    }
    constexpr std::size_t kCell = 256;
    std::vector<char> buffers(n * kCell);
    std::vector<unsigned long> out_len(n);
    std::vector<my_bool> is_null(n), error(n);
    std::vector<MYSQL_BIND> out(n);
    for (unsigned i = 0; i < n; ++i) {
        std::memset(&out[i], 0, sizeof out[i]);
        out[i].buffer_type = MYSQL_TYPE_STRING;
        out[i].buffer = &buffers[i * kCell];
        out[i].buffer_length = kCell;
        out[i].length = &out_len[i];
        out[i].is_null = &is_null[i];
        out[i].error = &error[i];
    }
    if (mysql_stmt_bind_result(stmt, out.data()) != 0)
        fail(mysql_stmt_errno(stmt), mysql_stmt_sqlstate(stmt), mysql_stmt_error(stmt));
    for (;;) {
        int rc = mysql_stmt_fetch(stmt);
        if (rc == MYSQL_NO_DATA) break;
        if (rc == 1)
            fail(mysql_stmt_errno(stmt), mysql_stmt_sqlstate(stmt), mysql_stmt_error(stmt));
        Row r;
        for (unsigned i = 0; i < n; ++i) {
            if (is_null[i])
                r.push_back(std::nullopt);
            else
                r.push_back(
                    std::string(&buffers[i * kCell], std::min<unsigned long>(out_len[i], kCell)));
        }
        result.rows.push_back(std::move(r));
    }
    mysql_stmt_free_result(stmt);
    if (!result.rows.empty()) {
        result.has_row = true;
        result.value = result.rows[0][0];
    }
    if (!want_rows && result.rows.size() > 1) result.rows.resize(1);
    mark_quiet();
    return result;
}

}  // namespace nativelock::mysql
