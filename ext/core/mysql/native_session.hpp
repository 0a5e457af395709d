// A MariaDB Connector/C session owned by the extension: prepared statements cached per SQL
// text, no auto-reconnect (a lost session must be noticed: its locks are gone), fork-aware.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <memory>
#include <string>

#include "mysql/session.hpp"
#include "common/process.hpp"

typedef struct st_mysql MYSQL;
typedef struct st_mysql_stmt MYSQL_STMT;

namespace nativelock::mysql {

struct ConnectParams {
    std::string host;
    std::string user;
    std::string password;
    std::string database;
    std::string charset = "utf8mb4";
    unsigned port = 0;
    std::string unix_socket;
    double connect_timeout = 2;
    double read_timeout = 30;

    // Pool key: every field that changes what the session is.
    std::string key() const;

    // Applies configureConnection()'s $additionalDsn ("key=value;…", as PDO's mysql: DSN takes
    // it) for the native driver: host, port, dbname, charset and unix_socket are honoured;
    // anything else throws InvalidArgument naming the key (never its value), rather than being
    // silently ignored.
    void apply_additional_dsn(std::string_view dsn);
};

// `sql` with each `?` outside quotes replaced by its parameter as a literal (strings as
// `_binary X'…'`): execute_waiting()'s text statements. Throws InvalidArgument when the counts
// differ.
std::string splice_params(const std::string &sql, const std::vector<Param> &params);

class NativeSession : public Session {
  public:
    explicit NativeSession(ConnectParams params);
    ~NativeSession() override;
    NativeSession(const NativeSession &) = delete;
    NativeSession &operator=(const NativeSession &) = delete;

    Result execute(const std::string &sql, const std::vector<Param> &params, bool prepared,
                   bool want_rows) override;
    double max_wait_seconds() const override;
    bool exclusive() const override { return true; }
    // The statement is sent as text (parameters spliced as literals) and its reply awaited in
    // poll() slices; `stop` ends the server-side wait with KILL QUERY from the side session.
    bool cancellable_waits() const override { return true; }
    Result execute_waiting(const std::string &sql, const std::vector<Param> &params,
                           const std::function<bool()> &stop, bool *cancelled) override;
    Session *side_session() override;

    // Connects if not connected; if connected, checks without a round trip that the server has
    // not closed the socket (KILL, restart) and reconnects if it did. Returns the generation.
    // The check is skipped when the socket was known quiet less than kRecheckAfter ago (as
    // RedisLock's pool trusts a connection that answered less than 1 ms ago).
    static constexpr std::chrono::microseconds kRecheckAfter{1000};
    std::uint64_t ensure_connected();
    bool connected() const { return conn_ != nullptr; }
    // Increments on every new server session: locks recorded with an older generation are gone.
    std::uint64_t generation() const override { return generation_; }
    void drop() override { disconnect(); }
    unsigned long connection_id() const;
    // The name of a user lock this server session holds for its whole life, taken (GET_LOCK, one
    // round trip) the first time it is asked for in a session: an identity no other session
    // can have, where a connection id is reused after a server restart. Auto-renewal, from
    // another session, judges the holder by both. Throws SessionLost if the session is gone or
    // replaced meanwhile (it never connects anew).
    std::string identity_lock();
    // Closes (QUIT) in the creating process; in another process just forgets the socket.
    void disconnect() noexcept;
    // Round trips made so far (statements executed + prepares + connects).
    std::uint64_t round_trips() const { return round_trips_; }
    // Liveness polls made so far by ensure_connected() (each one system call, no round trip).
    std::uint64_t liveness_polls() const { return liveness_polls_; }
    const ConnectParams &params() const { return params_; }
    process::Tag owner() const { return owner_; }

  private:
    [[noreturn]] void fail(unsigned code, const char *sqlstate, const char *message);
    MYSQL_STMT *statement(const std::string &sql);
    // Reads the reply of a text statement already sent (mysql_real_query, mysql_send_query).
    Result text_result();
    // Ends the statement this session runs, from a new session; false if that failed.
    bool cancel_running_statement() noexcept;
    void mark_quiet() { quiet_at_ = std::chrono::steady_clock::now(); }

    ConnectParams params_;
    MYSQL *conn_ = nullptr;
    process::Tag owner_;
    std::uint64_t generation_ = 0;
    // When the socket was last known to hold nothing unread: connected, found quiet by
    // ensure_connected()'s poll, or a reply read to its end (mark_quiet()); cleared as a
    // statement is sent.
    std::chrono::steady_clock::time_point quiet_at_{};
    std::uint64_t round_trips_ = 0;
    std::uint64_t liveness_polls_ = 0;
    // identity_lock()'s name, and the generation of the session that holds it.
    std::string identity_;
    std::uint64_t identity_generation_ = 0;
    std::map<std::string, MYSQL_STMT *> statements_;
    std::unique_ptr<NativeSession> side_;
    // When opening the side session last failed: it is not tried again for a second (an
    // unreachable server would cost the connect timeout on every slice of a wait).
    std::optional<std::chrono::steady_clock::time_point> side_failed_at_;
};

}  // namespace nativelock::mysql
