// The session interface the SharedLock protocol runs its statements through. Two
// implementations: NativeSession (libmariadb, in the core) and the PDO session of the shim.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/error.hpp"

namespace nativelock::mysql {

// One bound parameter of a statement (lock names are always bound, never spliced).
struct Param {
    enum class Kind { String, Int, Double } kind = Kind::String;
    std::string s;
    long long i = 0;
    double d = 0;

    static Param str(std::string v) {
        Param p;
        p.kind = Kind::String;
        p.s = std::move(v);
        return p;
    }
    static Param integer(long long v) {
        Param p;
        p.kind = Kind::Int;
        p.i = v;
        return p;
    }
    static Param real(double v) {
        Param p;
        p.kind = Kind::Double;
        p.d = v;
        return p;
    }
};

using Row = std::vector<std::optional<std::string>>;

struct Result {
    std::uint64_t affected = 0;
    // The OK packet's last insert id (LAST_INSERT_ID(expr) sets it).
    std::uint64_t insert_id = 0;
    // First column of the first row; nullopt when there is no row or the value is NULL.
    bool has_row = false;
    std::optional<std::string> value;
    // Every row, only when asked for (REPAIR TABLE).
    std::vector<Row> rows;
    std::vector<std::string> columns;
};

// The server refused a statement; the session is still usable.
class SqlError : public Error {
  public:
    SqlError(unsigned code, std::string sqlstate, const std::string &message)
        : Error(message), code_(code), sqlstate_(std::move(sqlstate)) {}
    unsigned code() const noexcept { return code_; }
    const std::string &sqlstate() const noexcept { return sqlstate_; }

  private:
    unsigned code_;
    std::string sqlstate_;
};

// The session is gone (killed, server restarted, network): every lock it held is lost.
class SessionLost : public ConnectionError {
  public:
    SessionLost(unsigned code, const std::string &message)
        : ConnectionError(message), code_(code) {}
    unsigned code() const noexcept { return code_; }

  private:
    unsigned code_;
};

// The lock names a session last found taken, so that its next acquisition of a name that is hot
// joins the line at once: under contention, GET_LOCK(name, 0) in the first INSERT fails
// whenever someone waits, and costs a statement of the server's and the client's time (a
// PDOException on a PDO) on every acquisition. Every kProbeEvery-th acquisition of such a name
// tries first again, so a name that cooled down goes back to one statement per acquisition.
class ContentionHints {
  public:
    static constexpr unsigned kProbeEvery = 8;
    static constexpr std::size_t kMaxNames = 64;

    // Whether to skip the first try of `name` this time.
    bool join_line_at_once(const std::string &name) {
        auto it = taken_.find(name);
        if (it == taken_.end()) return false;
        if (++it->second < kProbeEvery) return true;
        it->second = 0;
        return false;
    }
    void found_taken(const std::string &name) {
        if (taken_.size() >= kMaxNames && !taken_.count(name)) taken_.clear();
        taken_[name] = 0;
    }
    void found_free(const std::string &name) { taken_.erase(name); }

  private:
    std::unordered_map<std::string, unsigned> taken_;  // name -> acquisitions since the last try
};

class Session {
  public:
    virtual ~Session() = default;
    ContentionHints &contention_hints() { return hints_; }
    // Runs one statement with `?` placeholders. `prepared` statements may be prepared once and
    // cached by SQL text; others (KILL, REPAIR TABLE) run as plain text. Throws SqlError or
    // ConnectionError/SessionLost.
    virtual Result execute(const std::string &sql, const std::vector<Param> &params, bool prepared,
                           bool want_rows) = 0;
    // Longest server-side wait one statement may take before the client's read timeout fires.
    virtual double max_wait_seconds() const { return 30.0; }
    // Whether execute_waiting() waits whole, asking `stop` meanwhile. A session that cannot
    // (a PDO) makes the protocol wait in short slices, so that signal handlers run and the row
    // is looked at between slices.
    virtual bool cancellable_waits() const { return false; }
    // Runs a statement that may wait long on the server (GET_LOCK). While it waits, `stop` is
    // asked every slice and at once on a signal; when it says so, the wait is ended on the
    // server and *cancelled set. The result then says whether the wait had ended first
    // (GET_LOCK 1) or not (NULL, or no row). `stop` runs no statement on this session.
    virtual Result execute_waiting(const std::string &sql, const std::vector<Param> &params,
                                   const std::function<bool()> &stop, bool *cancelled) {
        (void)stop;
        *cancelled = false;
        return execute(sql, params, true, true);
    }
    // A second session of the same server and user, for what cannot wait for a statement in
    // flight on this one (a look at a row during execute_waiting()); opened on first use and
    // closed when that wait ends. nullptr if there is none or it cannot be opened now.
    virtual Session *side_session() { return nullptr; }
    // True if nobody else runs statements on this session: the protocol may then use
    // LAST_INSERT_ID(expr) to learn GET_LOCK's result from an INSERT (one round trip).
    virtual bool exclusive() const { return false; }

    // Increments whenever the server session is replaced (its locks are gone); 0 if unknown.
    virtual std::uint64_t generation() const { return 0; }
    // Ends the server session (its locks go with it); the next statement opens a new one.
    virtual void drop() {}

  private:
    ContentionHints hints_;
};

}  // namespace nativelock::mysql
