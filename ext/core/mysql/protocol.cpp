#include "mysql/protocol.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <functional>
#include <thread>

#include "common/deadline.hpp"
#include "common/process.hpp"

namespace nativelock::mysql {

namespace {

constexpr unsigned kErDupEntry = 1062;
constexpr unsigned kErKeyNotFound = 1032;
constexpr unsigned kErDataOutOfRange = 1690;           // ER_DATA_OUT_OF_RANGE: `~0 + 1`
constexpr unsigned kErCantAggregateCollations = 1267;  // ER_CANT_AGGREGATE_2COLLATIONS

bool is_ascii(const std::string &s) {
    for (unsigned char c : s)
        if (c >= 0x80) return false;
    return true;
}

bool needs_repair(const SqlError &e) {
    return e.code() == kErKeyNotFound ||
           std::string(e.what()).find("Incorrect key file for table") != std::string::npos;
}

long long to_ll(const std::optional<std::string> &v) {
    return v ? std::strtoll(v->c_str(), nullptr, 10) : 0;
}

void sleep_seconds(double s) {
    if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

// Where take_over_stale_row() leaves the session of the row it took, and whether that session
// held the lock then: the row marked acquired and its GET_LOCK held.
constexpr const char *kPreviousHolderVar = "nativelock_previous_holder";
constexpr const char *kPreviousHeldVar = "nativelock_previous_held";
// The session variable where the first try notes that its GET_LOCK was granted.
constexpr const char *kGrantVar = "nativelock_grant";

// A token no earlier call of this process used (a session serves one process at a time).
std::string next_grant_token() {
    static std::atomic<unsigned long long> counter{0};
    return std::to_string(process::current_pid()) + ":" + std::to_string(++counter);
}

// Whether a row's holder has let its GET_LOCK go. The table's UNIQUE key conflates spellings
// (case, trailing spaces: its collation) that GET_LOCK keeps apart, and GET_LOCK keys a name by
// its bytes in the holder's connection character set. So the row is asked about under its own
// spelling (every take-over writes the taker's spelling into it), in each encoding a holder may
// have used: ours, utf8mb4, and latin1 (the package's table charset).
std::string row_holder_gone(const std::string &q_name, const std::string &q_conn) {
    std::string sql;
    for (const std::string &as :
         {"CAST(" + q_name + " AS CHAR)", "CONVERT(" + q_name + " USING utf8mb4)",
          "CONVERT(" + q_name + " USING latin1)"}) {
        if (!sql.empty()) sql += " AND ";
        sql += "IFNULL(IS_USED_LOCK(" + as + "), 0) != " + q_conn;
    }
    return "(" + sql + ")";
}

constexpr const char *kHolderDoesNotTerminate =
    "Could not acquire lock. Other session holds it and does not terminate.";

// The longest server-side wait between two looks at the caller's interrupted() on a session
// that cannot end a wait in flight; also when a long wait first looks at the row.
constexpr double kInterruptSliceSeconds = 0.2;
// Between bounded server-side waits the caller may run PHP signal handlers.
void throw_if_interrupted(const std::function<bool()> &interrupted) {
    if (interrupted && interrupted()) throw WaitInterrupted("interrupted");
}

// Tries of claim_row_holding_get_lock()'s INSERT and UPDATE before the row is taken to stand.
constexpr int kClaimAttempts = 3;

// Whether `SELECT GET_LOCK(...)` granted the lock; NULL (an error: the session killed, out of
// memory) is a failure of the acquisition.
bool get_lock_granted(const Result &got, const std::string &name) {
    if (!got.value) throw AcquireFailed("GET_LOCK() failed for lock \"" + name + "\"");
    return *got.value == "1";
}

// `SELECT <condition>, GET_LOCK(...)`: whether the condition, evaluated before the wait, held
// (*held), and GET_LOCK's result as get_lock_granted() takes it.
Result split_conditional_wait(const Result &both, bool *held) {
    Result got;
    *held = false;
    if (!both.rows.empty() && both.rows[0].size() > 1) {
        *held = both.rows[0][0] == std::optional<std::string>("1");
        got.value = both.rows[0][1];
    }
    return got;
}

}  // namespace

long long ttl_seconds(double seconds) {
    if (!(seconds < static_cast<double>(kMaxTtlSeconds))) return kMaxTtlSeconds;  // INF, NaN
    if (!(seconds > -static_cast<double>(kMaxTtlSeconds))) return -kMaxTtlSeconds;
    return std::llround(seconds);
}

std::size_t name_length(const std::string &name) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < name.size();) {
        auto c = static_cast<unsigned char>(name[i]);
        std::size_t len = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xE  ? 3
                          : (c >> 3) == 0x1E ? 4
                                             : 0;
        if (len == 0 || i + len > name.size()) return name.size();
        for (std::size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(name[i + k]) & 0xC0) != 0x80) return name.size();
        i += len;
        ++chars;
    }
    return chars;
}

Protocol::Protocol(Session &session, QuoteStyle style, std::string table)
    : session_(session),
      style_(style),
      table_(std::move(table)),
      fences_table_(table_ + "_fences") {
    q_table_ = quote(table_);
    q_name_ = quote("name");
    q_created_ = quote("created");
    q_ttl_ = quote("ttl");
    q_conn_ = quote("connection_id");
    q_acquired_ = quote("lock_acquired");
}

std::string Protocol::quote(const std::string &identifier) const {
    return style_ == QuoteStyle::Ansi ? "\"" + identifier + "\"" : "`" + identifier + "`";
}

// Like the package's sqlExecute(): a corrupted MyISAM table is repaired once, then retried.
template <typename Statement>
Result Protocol::with_repair(const Statement &statement) {
    bool repaired = false;
    for (;;) {
        try {
            ++statements_;
            return statement();
        } catch (const SqlError &e) {
            if (repaired || !needs_repair(e)) throw;
        }
        repair_table();
        repaired = true;
    }
}

Result Protocol::run(const std::string &sql, const std::vector<Param> &params, bool prepared,
                     bool want_rows) {
    return with_repair([&] { return session_.execute(sql, params, prepared, want_rows); });
}

Result Protocol::run_waiting(const std::string &sql, const std::vector<Param> &params,
                             const std::function<bool()> &stop, bool *cancelled) {
    return with_repair([&] { return session_.execute_waiting(sql, params, stop, cancelled); });
}

bool Protocol::cancelled_wait_granted(const Result &got, const std::string &name) {
    if (got.value == std::optional<std::string>("1")) return true;
    // NULL, or an error in place of the reply (a KILL that came as the grant was being sent
    // may report itself after it): only the session can say whether the wait was granted. It
    // waited because another session held the name, so holding it now means granted. (The
    // KILL cannot reach this statement: MariaDB clears it as a statement begins.)
    return run("SELECT IFNULL(IS_USED_LOCK(?) = CONNECTION_ID(), 0)", {Param::str(name)}).value ==
           std::optional<std::string>("1");
}

bool Protocol::register_row(const std::string &name, long long ttl) {
    try {
        run("INSERT INTO " + q_table_ + " (" + q_name_ + ", " + q_created_ + ", " + q_ttl_ + ", " +
                q_conn_ + ", " + q_acquired_ +
                ") VALUES (?, unix_timestamp(), ?, connection_id(), false)",
            {Param::str(name), Param::integer(ttl)});
        return true;
    } catch (const SqlError &e) {
        if (e.code() == kErDupEntry || e.sqlstate() == "23000") return false;
        throw;
    }
}

// GET_LOCK(name, 0) and the lock_acquired mark in one statement: the row is marked only if
// GET_LOCK succeeded (the WHERE makes this independent of CLIENT_FOUND_ROWS).
bool Protocol::take_get_lock(const std::string &name) {
    Result r = run("UPDATE " + q_table_ + " SET " + q_acquired_ + " = true WHERE " + q_name_ +
                       " = ? AND " + q_conn_ + " = connection_id() AND GET_LOCK(?, 0) = 1",
                   {Param::str(name), Param::str(name)});
    return r.affected == 1;
}

void Protocol::deregister(const std::string &name) {
    run("DELETE FROM " + q_table_ + " WHERE " + q_name_ + " = ? AND " + q_conn_ +
            " = connection_id()",
        {Param::str(name)});
}

// Rows past their TTL, or marked acquired by a session that no longer holds GET_LOCK, become ours
// in one statement (the package deletes them and inserts anew: the same end state). The row's
// previous session, and whether it held the lock then (marked the row acquired and holds
// GET_LOCK), are kept in session variables for take_get_lock_owning_row(), which may have to
// KILL it. Each is read in an assignment of its own (no short-circuit skips it), before the
// columns it reads are assigned: SET runs left to right.
bool Protocol::take_over_stale_row(const std::string &name, long long ttl) {
    // The row takes our spelling: a holder's GET_LOCK is always asked about under the name
    // that holder took it by.
    Result r = run("UPDATE " + q_table_ + " SET " + q_created_ + " = IF((@" + kPreviousHeldVar +
                       " := " + q_acquired_ + " AND NOT " + row_holder_gone(q_name_, q_conn_) +
                       ") IS NULL, unix_timestamp(), unix_timestamp()), " + q_conn_ + " = IF((@" +
                       kPreviousHolderVar + " := " + q_conn_ +
                       ") IS NULL, connection_id(), connection_id()), " + q_ttl_ + " = ?, " +
                       q_acquired_ + " = false, " + q_name_ + " = ? WHERE " + q_name_ +
                       " = ? AND (" + q_created_ + " + " + q_ttl_ + " < unix_timestamp() OR (" +
                       q_acquired_ + " AND " + row_holder_gone(q_name_, q_conn_) + "))",
                   {Param::integer(ttl), Param::str(name), Param::str(name)});
    return r.affected == 1;
}

// Whether session `victim` (not ours) still holds GET_LOCK on the name.
bool Protocol::still_holds(const std::string &name, long long victim) {
    if (victim == 0) return false;
    Result still = run("SELECT IFNULL(IS_USED_LOCK(?), 0) = ? AND ? <> CONNECTION_ID()",
                       {Param::str(name), Param::integer(victim), Param::integer(victim)});
    return still.value && *still.value == "1";
}

void Protocol::kill_session(long long victim) {
    try {
        run("KILL " + std::to_string(victim), {}, false);
    } catch (const SqlError &) {
        // The session may have ended meanwhile.
    }
}

// We own the row: take GET_LOCK. A waiter may hold it for a moment (its probe), and nobody else
// may be killed for that. Only a session known to hold it for good is KILLed, and only while it
// still holds it, we still own the row, and it is not our own:
// - the session that held the expired row we took over (marked acquired, GET_LOCK held), as
//   long as it has been seen holding GET_LOCK at every look since: hung past its TTL;
// - any other session of that row (it was a waiter: the row-first path, or a client of the
//   package's order; or it has let go since), once seen holding GET_LOCK for a whole second.
//   Finding its row gone, a waiter may hold GET_LOCK for a moment to probe, or be granted it
//   and claim our row as a hand-off; a KILL then failed its lock() with a lost session (CI,
//   2026-11-27). Held for a second, it is hung or leaked: the package's getLock() throws without
//   RELEASE_LOCK when it cannot mark a row taken from it;
// - with kill_rowless_holders_, one that holds GET_LOCK without any row of this name for a
//   whole second (a holder past its TTL whose row someone else removed).
// "A whole second" counts only looks less than 500 ms apart (they come every 50 ms or so): a
// stall of our own between two looks could otherwise join two probes into one long hold.
bool Protocol::take_get_lock_owning_row(const std::string &name, bool took_over,
                                        const Deadline &deadline,
                                        const std::function<void()> &check_interrupt) {
    using Clock = Deadline::Clock;
    constexpr double kLongHoldSeconds = 1.0, kLookGapSeconds = 0.5;
    double pause = 0.001;
    int kills = 0;
    const auto started = Clock::now();
    // A hold seen at every look since `since`, the last look at `last`.
    struct Hold {
        std::optional<long long> who;
        Clock::time_point since{}, last{};
        // Notes what a look at `now` saw; true once `who` has held for a whole second.
        bool seen(std::optional<long long> holder, Clock::time_point now) {
            const bool unbroken =
                holder && holder == who &&
                std::chrono::duration<double>(now - last).count() < kLookGapSeconds;
            if (!unbroken) since = now;
            who = holder;
            last = now;
            return who && std::chrono::duration<double>(now - since).count() >= kLongHoldSeconds;
        }
    };
    Hold previous_hold, rowless_hold;
    // The row's previous session, as the take-over found it (read by the first look).
    struct Previous {
        long long id;
        bool held_at_take_over;
    };
    std::optional<Previous> previous;
    bool previous_held_throughout = true;  // until a look sees it not holding
    // Sleeps, then lets the next pause grow (1 ms doubling up to 50 ms).
    auto back_off = [&](double seconds) {
        sleep_seconds(seconds);
        pause = std::min(pause * 2, 0.05);
    };
    while (!take_get_lock(name)) {
        const auto now = Clock::now();
        const double waited = std::chrono::duration<double>(now - started).count();
        if (waited <= 0.05) {  // a victim is named only after 50 ms
            if (kill_rowless_holders_ || took_over) {
                back_off(pause);
            } else {
                if (deadline.expired()) throw LockTimeout("timeout");
                check_interrupt();
                back_off(deadline.remaining_seconds(pause));
            }
            continue;
        }
        // One look: whether the row is still ours and, after a take-over, whether its previous
        // session holds GET_LOCK. The row may have been taken meanwhile (a waiter granted
        // GET_LOCK claims a row of its spelling; a wait longer than our TTL makes ours stale):
        // then GET_LOCK can never be ours through it, and the caller starts over.
        // The first look after a take-over reads the session variables the take-over left;
        // later ones pass what it read (a PHP signal handler run by check_interrupt() may take
        // another lock on a shared session, and overwrite them).
        const std::string mine = "(SELECT COUNT(*) FROM " + q_table_ + " WHERE " + q_name_ +
                                 " = ? AND " + q_conn_ + " = connection_id())";
        Result look;
        if (!took_over) {
            look = run("SELECT " + mine, {Param::str(name)}, true, true);
        } else if (!previous) {
            const std::string holder = std::string("@") + kPreviousHolderVar;
            look = run("SELECT " + mine + ", IF(IFNULL(IS_USED_LOCK(?), 0) = " + holder + " AND " +
                           holder + " <> CONNECTION_ID(), " + holder + ", NULL), IFNULL(" + holder +
                           ", 0), IFNULL(@" + kPreviousHeldVar + ", 0)",
                       {Param::str(name), Param::str(name)}, true, true);
        } else {
            look = run("SELECT " + mine +
                           ", IF(IFNULL(IS_USED_LOCK(?), 0) = ? AND ? <> CONNECTION_ID(), ?, NULL)",
                       {Param::str(name), Param::str(name), Param::integer(previous->id),
                        Param::integer(previous->id), Param::integer(previous->id)},
                       true, true);
        }
        if (look.rows.empty() || to_ll(look.rows[0][0]) == 0) return false;
        std::optional<long long> victim;
        if (took_over && look.rows[0].size() > 1) {
            const auto &row = look.rows[0];
            if (!previous && row.size() > 3)
                previous = Previous{to_ll(row[2]), row[3] && to_ll(row[3]) != 0};
            // 0 names no session (a row whose connection_id was 0 or NULL): with GET_LOCK free,
            // IS_USED_LOCK() reads 0 too.
            std::optional<long long> holding;
            if (row[1] && to_ll(row[1]) != 0) holding = to_ll(row[1]);
            if (!holding) previous_held_throughout = false;
            const bool held_at_take_over = previous && previous->held_at_take_over;
            const bool long_hold = previous_hold.seen(holding, now);
            if (holding && ((held_at_take_over && previous_held_throughout) || long_hold))
                victim = holding;
        }
        if (!victim && kill_rowless_holders_) {
            Result holder =
                run("SELECT IS_USED_LOCK(?), (SELECT COUNT(*) FROM " + q_table_ + " WHERE " +
                        q_name_ + " = ? AND " + q_conn_ + " = IS_USED_LOCK(?))",
                    {Param::str(name), Param::str(name), Param::str(name)}, true, true);
            std::optional<long long> rowless;
            if (!holder.rows.empty() && holder.rows[0].size() > 1 && holder.rows[0][0] &&
                to_ll(holder.rows[0][1]) == 0)
                rowless = to_ll(holder.rows[0][0]);
            if (rowless_hold.seen(rowless, now) && still_holds(name, *rowless)) victim = rowless;
        }
        if (victim) {
            // The TTL promise: however short our deadline, a single attempt ends a holder past
            // its TTL. One that does not end in 5 s (or 20 KILLs) fails the attempt.
            if (waited > 5.0 || kills++ > 20) throw AcquireFailed(kHolderDoesNotTerminate);
            kill_session(*victim);
            back_off(pause);
            continue;
        }
        if (kill_rowless_holders_) {
            if (waited > 5.0) throw AcquireFailed(kHolderDoesNotTerminate);
            back_off(pause);
            continue;
        }
        // While the row's previous session holds GET_LOCK, the deadline waits (up to 5 s) for
        // the second that tells a probe from a hung or leaked hold, as the TTL promise ends a
        // holder past its TTL whatever the deadline: a short deadline would otherwise time out,
        // give our row back, and with it the only record of whom to end.
        // Signal handlers still run meanwhile.
        if (previous_hold.who && waited <= 5.0) {
            check_interrupt();
            back_off(pause);
            continue;
        }
        // Anyone else holding GET_LOCK (no row: php-lock's MySQLMutex, an application's own
        // GET_LOCK, a waiter woken by a KILL) keeps it until it lets go, and we wait up to the
        // caller's deadline.
        if (deadline.expired()) throw LockTimeout("timeout");
        check_interrupt();
        back_off(deadline.remaining_seconds(pause));
    }
    return true;
}

// With GET_LOCK held: the row becomes ours, marked acquired. A row that stands is taken over
// only when it is stale: past its TTL, or marked acquired by a session that no longer holds
// GET_LOCK (it is ours now). A row not marked acquired belongs to a client between its INSERT
// and its GET_LOCK (the package's order): it is left alone. `row_stands`: a duplicate was just
// seen, so only the take-over is tried.
bool Protocol::claim_row_holding_get_lock(const std::string &name, long long ttl, bool row_stands,
                                          bool granted_after_waiting) {
    // Granted after waiting, GET_LOCK decides for an unmarked row of our very spelling: one a
    // client of the package's order inserted before its own GET_LOCK, which now waits for ours.
    // Any other row is taken only when stale by its own holder's GET_LOCK (a dead session's).
    std::vector<Param> params{Param::integer(ttl), Param::str(name), Param::str(name)};
    std::string ours_by_spelling;
    if (granted_after_waiting) {
        // Only a row not marked acquired: a marked one of our spelling may be a live holder's
        // of another encoding (latin1 'é' reads as our utf8mb4 'é', but is another GET_LOCK);
        // a marked one whose holder is gone is caught below.
        ours_by_spelling =
            "(NOT " + q_acquired_ + " AND BINARY CAST(" + q_name_ + " AS CHAR) = BINARY ?) OR ";
        params.push_back(Param::str(name));
    }
    // Granted after waiting, the row met by the INSERT may be gone by the UPDATE (its holder
    // past its TTL deleting it, a client of the row-first order withdrawing it at its timeout).
    // Then the INSERT is tried again (a few times), instead of giving the grant back and losing
    // our place in the queue.
    bool ended_hung_holder = false;
    for (int attempt = 0;; ++attempt) {
        if (!row_stands) {
            try {
                Result r = run("INSERT INTO " + q_table_ + " (" + q_name_ + ", " + q_created_ +
                                   ", " + q_ttl_ + ", " + q_conn_ + ", " + q_acquired_ +
                                   ") VALUES (?, unix_timestamp(), ?, connection_id(), true)",
                               {Param::str(name), Param::integer(ttl)});
                if (r.affected == 1) return true;
            } catch (const SqlError &e) {
                if (e.code() != kErDupEntry && e.sqlstate() != "23000") throw;
            }
        }
        // A row not marked acquired is stale past its TTL; a marked one once its holder has let
        // GET_LOCK go (one that still holds it past its TTL is hung, and ended below first).
        Result r = run("UPDATE " + q_table_ + " SET " + q_conn_ + " = connection_id(), " +
                           q_created_ + " = unix_timestamp(), " + q_ttl_ + " = ?, " + q_acquired_ +
                           " = true, " + q_name_ + " = ? WHERE " + q_name_ + " = ? AND " + q_conn_ +
                           " <> connection_id() AND (" + ours_by_spelling + "(NOT " + q_acquired_ +
                           " AND " + q_created_ + " + " + q_ttl_ + " < unix_timestamp()) OR (" +
                           q_acquired_ + " AND " + row_holder_gone(q_name_, q_conn_) + "))",
                       params);
        if (r.affected == 1) return true;
        if (!ended_hung_holder && end_hung_holder_of_stale_row(name)) {
            ended_hung_holder = true;
            row_stands = true;  // its row, now stale: the claim again
            continue;
        }
        if (!granted_after_waiting || attempt == kClaimAttempts - 1) return false;
        row_stands = false;
    }
}

// A row past its TTL whose holder still holds GET_LOCK is a hung holder's. Under our spelling its
// GET_LOCK would have kept ours from being granted, and the row-first take-over KILLs it (the
// package's TTL promise: its transaction on that session must not commit). Under another
// spelling, which the table's unique key conflates with ours and GET_LOCK does not, our GET_LOCK
// was granted beside it, and the claim leaves its row alone: it is KILLed here, and the row is
// claimed once it has let go. A KILL that fails (refused, or not done in 5 s) leaves the row as it
// was, and with it the record of whom to end, for the next contender. Returns whether a hung
// holder was ended.
bool Protocol::end_hung_holder_of_stale_row(const std::string &name) {
    const Result row = run("SELECT " + q_conn_ + ", " + q_name_ + " FROM " + q_table_ + " WHERE " +
                               q_name_ + " = ? AND " + q_conn_ + " <> connection_id() AND " +
                               q_acquired_ + " AND " + q_created_ + " + " + q_ttl_ +
                               " < unix_timestamp() AND NOT " + row_holder_gone(q_name_, q_conn_),
                           {Param::str(name)}, true, true);
    if (row.rows.empty() || row.rows[0].size() < 2 || !row.rows[0][0] || !row.rows[0][1])
        return false;
    const long long victim = to_ll(row.rows[0][0]);
    if (victim <= 0) return false;
    // Asked under the row's own spelling, in every encoding a holder may have used, as
    // row_holder_gone() asks.
    std::vector<Param> look;
    for (int i = 0; i < 3; ++i) {
        look.push_back(Param::str(*row.rows[0][1]));
        look.push_back(Param::integer(victim));
    }
    const std::string holds = "SELECT NOT " + row_holder_gone("?", "?");
    using Clock = Deadline::Clock;
    const auto started = Clock::now();
    auto next_kill = started;
    double pause = 0.001;
    for (;;) {
        const auto now = Clock::now();
        if (now >= next_kill) {
            // KILL returns before the server has torn the session down: sent again every
            // quarter of a second while the session holds on.
            kill_session(victim);
            next_kill = now + std::chrono::milliseconds(250);
        }
        sleep_seconds(pause);
        pause = std::min(pause * 2, 0.05);
        const Result still = run(holds, look, true, true);
        if (!still.value || *still.value != "1") return true;
        if (std::chrono::duration<double>(Clock::now() - started).count() > 5.0)
            throw AcquireFailed(kHolderDoesNotTerminate);
    }
}

static bool is_lock_error(std::exception_ptr failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const Error &) {
        return true;
    } catch (...) {
        return false;
    }
}

// What was taken is given back, then the failure goes on. Never from inside a catch handler:
// on a PDO session a statement is a PHP call, and user code (a PDO subclass, a signal handler)
// runs in it. Only after an error of the lock's own (SQL, connection, protocol): after anything
// else (a PHP fatal error inside a PDO call, out of memory) no statement is run, and such a
// failure of the give-back goes on in place of the first one.
[[noreturn]] static void give_back_then_rethrow(const std::function<void()> &give_back,
                                                std::exception_ptr failure) {
    if (is_lock_error(failure)) {
        try {
            give_back();
        } catch (const Error &) {
            // The first failure is the one to report; what is left lapses with the row's TTL.
        } catch (...) {
            failure = std::current_exception();
        }
    }
    std::rethrow_exception(failure);
}

bool Protocol::claim_granted(const std::string &name, long long ttl, bool row_stands,
                             bool granted_after_waiting, std::uint64_t granted_on) {
    bool claimed = false;
    std::exception_ptr failure;
    try {
        claimed = claim_row_holding_get_lock(name, ttl, row_stands, granted_after_waiting);
        // A claim that ran on a replaced session (a silent reconnect between two statements)
        // holds nothing.
        if (session_.generation() != granted_on)
            throw SessionLost(2013, "MySQL session replaced while acquiring lock \"" + name + "\"");
    } catch (...) {
        failure = std::current_exception();
    }
    if (failure) {
        give_back_then_rethrow(
            [&] {
                if (session_.generation() == granted_on)
                    run("SELECT RELEASE_LOCK(?)", {Param::str(name)});
                else
                    deregister(name);  // the new session holds no GET_LOCK, maybe a row
            },
            failure);
    }
    return claimed;
}

// A waiter waits in GET_LOCK itself: MariaDB grants a released user lock to its oldest waiter,
// and a release (DELETE + RELEASE_LOCK in one statement) hands the lock straight to that
// waiter, so a newcomer's GET_LOCK(name, 0) fails while anyone waits and nobody barges past the
// queue. The row follows GET_LOCK. A shared session (a PDO) waits in the same line. What this
// path does not handle (a holder past its TTL, a row of a client using the package's order,
// our own session holding the name, a session holding GET_LOCK with no row for a second) goes
// to the row-first path (Fallback), holding nothing.
Protocol::Queued Protocol::lock_queued(const std::string &name, const Deadline &deadline,
                                       long long ttl, const std::function<bool()> &interrupted,
                                       WaitMemory &seen) {
    auto check_interrupt = [&] { throw_if_interrupted(interrupted); };
    auto give_back = [&] { run("SELECT RELEASE_LOCK(?)", {Param::str(name)}); };
    bool holding = false, row_stands = false, granted_after_waiting = false;
    // GET_LOCK(name, 0) and, if granted, the row in one statement: one round trip uncontended,
    // and no row at all while GET_LOCK is taken (no short-lived row for another newcomer to
    // find beside a free GET_LOCK and mistake for a client's lock in the making). With GET_LOCK
    // taken, IF() evaluates `~0 + 1`, which fails with ER_DATA_OUT_OF_RANGE in every sql_mode
    // and on any definition of the table; LAST_INSERT_ID() is left alone, as an application's
    // PDO needs. A server that evaluated that constant ahead of the row would fail every first
    // try before GET_LOCK, and the caller would wait in line: slower, never wrong. (INSERT …
    // SELECT … WHERE GET_LOCK() = 1 would say the same at three times the cost on MyISAM.)
    // The statement also notes a grant in a session variable under a token of this call's: an
    // error other than these two (a value the table cannot take, a CHECK constraint, a crashed
    // table found while writing) may come after GET_LOCK was granted, and only that grant, not
    // a level the session held before, is given back. (The server computes every value even
    // after one failed and reports the first failure; lock_acquired comes first, so that 1690
    // is the one reported while GET_LOCK is taken.) This INSERT is not repeated after a repair:
    // a second run would take a second level.
    ContentionHints &hints = session_.contention_hints();
    const bool join_at_once = !deadline.expired() && hints.join_line_at_once(name);
    for (bool repaired = false; !join_at_once;) {
        const std::string token = next_grant_token();
        std::exception_ptr failure;
        bool repair = false;
        try {
            ++statements_;
            Result r = session_.execute(
                "INSERT INTO " + q_table_ + " (" + q_acquired_ + ", " + q_name_ + ", " +
                    q_created_ + ", " + q_ttl_ + ", " + q_conn_ +
                    ") VALUES (IF(GET_LOCK(?, 0) = 1 AND (@" + kGrantVar +
                    " := ?) IS NOT NULL, true, ~0 + 1), ?, unix_timestamp(), ?, " +
                    "connection_id())",
                {Param::str(name), Param::str(token), Param::str(name), Param::integer(ttl)}, true,
                false);
            if (r.affected == 1) {
                hints.found_free(name);
                return Queued::Acquired;
            }
        } catch (const SqlError &e) {
            if (e.code() == kErDataOutOfRange) {
                hints.found_taken(name);  // GET_LOCK is taken: wait in line below
            } else if (e.code() == kErDupEntry || (e.code() == 0 && e.sqlstate() == "23000")) {
                // GET_LOCK was granted before the duplicate row was found.
                holding = row_stands = true;
            } else {
                failure = std::current_exception();
                repair = !repaired && needs_repair(e);
            }
        }
        if (!failure) break;
        auto give_back_grant = [&] {
            run("SELECT IF(@" + std::string(kGrantVar) + " = ?, RELEASE_LOCK(?), NULL)",
                {Param::str(token), Param::str(name)});
        };
        if (!repair) give_back_then_rethrow(give_back_grant, failure);
        give_back_grant();
        repair_table();  // as run() does, then the INSERT once more
        repaired = true;
    }
    // The session GET_LOCK was granted on (see claim_granted()).
    std::uint64_t granted_on = session_.generation();
    bool first_attempt = true;
    // Notes a look that found GET_LOCK held with no row of the name: true once the looks have
    // found so for a whole second. (Only a fallback to the row-first path follows, which counts
    // a second of its own, in looks close together, before it KILLs anyone.)
    auto rowless_for_a_second = [&](Deadline::Clock::time_point now) {
        if (!seen.rowless_since) seen.rowless_since = now;
        return std::chrono::duration<double>(now - *seen.rowless_since).count() >= 1.0;
    };
    bool probe_free = join_at_once;
    for (;;) {
        if (holding) {
            if (claim_granted(name, ttl, row_stands, granted_after_waiting, granted_on))
                return Queued::Acquired;
            // What stands is our own row, one a client of the package's order is about to lock,
            // or one that only looks ours: connection ids restart with the server, and a row
            // left before a restart may carry our id. The row-first path tells these apart (it
            // looks at the row with GET_LOCK given back).
            give_back();
            return Queued::Fallback;
        }
        if (deadline.expired()) {
            // A single attempt (timeout 0) still takes over a holder past its TTL: that is the
            // row-first path's to do.
            if (first_attempt) {
                Result row =
                    run("SELECT " + q_created_ + " + " + q_ttl_ + " - unix_timestamp() FROM " +
                            q_table_ + " WHERE " + q_name_ + " = ?",
                        {Param::str(name)});
                if (row.has_row && to_ll(row.value) < 0) return Queued::Fallback;
            }
            throw LockTimeout("timeout");
        }
        first_attempt = false;
        check_interrupt();
        // A session that can end a wait in flight waits whole, keeping its place in the
        // server's line (a wait re-sent after a slice rejoins the line at its end). What only
        // a look at the row can tell, the row's holder passing its TTL or, with kills of
        // rowless holders on, a second with no row, is looked at meanwhile from the side
        // session, once the wait has lasted a slice (a hot lock's waits end sooner, and cost
        // nothing more). (Read inside the waiting statement, the row would keep the MyISAM
        // table read-locked for the whole wait, and the holder's release, which deletes its
        // row, would wait for it.) Another session waits in slices and looks after each.
        const double wait = deadline.remaining_seconds(
            session_.cancellable_waits()
                ? session_.max_wait_seconds()
                : std::min(kInterruptSliceSeconds, session_.max_wait_seconds()));
        // A wait resumed after an interrupt keeps the look that was due (WaitMemory).
        if (!seen.next_look) seen.next_look = Deadline::after(kInterruptSliceSeconds);
        auto stop = [&]() -> bool {
            if (interrupted && interrupted()) return true;
            if (!seen.next_look->expired()) return false;
            const auto now = Deadline::Clock::now();
            // Set first: a look that fails is tried again a second later, not every slice.
            double again = 1.0;
            seen.next_look = Deadline::after(again);
            Session *side = session_.side_session();
            if (side) {
                const RowLook row =
                    parse_look(side->execute(look_sql(), {Param::str(name)}, true, true));
                if (row.has_row) {
                    seen.rowless_since.reset();
                    if (row.ttl_left < 0) return true;
                    again = std::clamp(row.seconds_until_stale, kInterruptSliceSeconds, 1.0);
                } else if (kill_rowless_holders_) {
                    if (rowless_for_a_second(now)) return true;
                    again = kInterruptSliceSeconds;
                }
            }
            seen.next_look = Deadline::after(again);
            return false;
        };
        // A session that joined the line at once asks whether the lock was free as it came: a
        // grant at once is no hand-off, and an unmarked row then standing is a client's lock in
        // the making (the package's order), which only a waiter that waited takes over.
        bool free_on_entry = false, cancelled = false;
        const Param timeout = Param::real(std::round(wait * 1000) / 1000);
        Result got;
        if (probe_free) {
            got = split_conditional_wait(
                run_waiting("SELECT IS_FREE_LOCK(?), GET_LOCK(?, ?)",
                            {Param::str(name), Param::str(name), timeout}, stop, &cancelled),
                &free_on_entry);
            probe_free = false;
        } else {
            got =
                run_waiting("SELECT GET_LOCK(?, ?)", {Param::str(name), timeout}, stop, &cancelled);
        }
        const bool granted =
            cancelled ? cancelled_wait_granted(got, name) : get_lock_granted(got, name);
        if (cancelled && !granted) check_interrupt();  // an interrupt ended it: that throws
        seen.next_look.reset();  // the next wait looks a slice after it begins
        if (granted) {
            // The row is written before lock() returns. (Sending it without waiting for the
            // reply saved a round trip of the hand-off, but a row of another spelling, which
            // the table's unique key conflates with ours, may have been written meanwhile by a
            // live holder of that spelling's GET_LOCK: only the reply says we did not get it.)
            granted_on = session_.generation();
            holding = true;
            row_stands = false;
            granted_after_waiting = !free_on_entry;
            continue;
        }
        // Still taken after a wait: a holder past its TTL, or one with no row, is the
        // row-first path's to handle (it takes over and, if it must, KILLs).
        const RowLook look = parse_look(run(look_sql(), {Param::str(name)}, true, true));
        if (!look.has_row && !kill_rowless_holders_) {
            // A session that holds GET_LOCK without a row may be no client of this table at
            // all (php-lock's MySQLMutex, an application's own GET_LOCK): wait for it.
            continue;
        }
        if (!look.has_row) {
            auto now = Deadline::Clock::now();
            if (rowless_for_a_second(now)) {
                seen.rowless_since.reset();  // the row-first path counts its own second
                return Queued::Fallback;
            }
        } else {
            seen.rowless_since.reset();
            if (look.ttl_left < 0) return Queued::Fallback;
        }
    }
}

std::string Protocol::look_sql() const {
    // The second column in floating point: a foreign row's ttl may be any bigint.
    return "SELECT " + q_created_ + " + " + q_ttl_ + " - unix_timestamp(), " + q_created_ +
           " + 0e0 + " + q_ttl_ + " + 1 - UNIX_TIMESTAMP(NOW(6)) FROM " + q_table_ + " WHERE " +
           q_name_ + " = ?";
}

Protocol::RowLook Protocol::parse_look(const Result &row) {
    RowLook look;
    if (row.rows.empty()) return look;
    look.has_row = true;
    look.ttl_left = to_ll(row.rows[0][0]);
    if (row.rows[0].size() > 1 && row.rows[0][1]) {
        // from_chars, not strtod(): no locale's decimal comma.
        const std::string &text = *row.rows[0][1];
        double until = 0;
        if (std::from_chars(text.data(), text.data() + text.size(), until).ec == std::errc() &&
            std::isfinite(until))
            look.seconds_until_stale = until;
    }
    return look;
}

std::string Protocol::create_fences_table_sql() const {
    return "CREATE TABLE IF NOT EXISTS " + quote(fences_table_) + " (" + q_name_ +
           " varchar(64) NOT NULL PRIMARY KEY, " + quote("fence") +
           " bigint unsigned NOT NULL) ENGINE=MyISAM";
}

long long Protocol::draw_fence(const std::string &name) {
    const std::string table = quote(fences_table_), fence = quote("fence");
    // The token must come from the session that holds GET_LOCK. A statement that found that
    // session closed reconnects silently and would draw it on a new session, for a lock gone
    // with the old one.
    const std::uint64_t holder = session_.generation();
    const auto same_session = [&] {
        if (session_.generation() != holder)
            throw SessionLost(2013,
                              "MySQL session replaced while drawing the fencing token for "
                              "lock \"" +
                                  name + "\": the lock was lost with it");
    };
    try {
        if (session_.exclusive()) {
            // LAST_INSERT_ID(1) on the VALUES path too: a first INSERT does not set it otherwise.
            Result r = run("INSERT INTO " + table + " (" + q_name_ + ", " + fence +
                               ") VALUES (?, LAST_INSERT_ID(1)) ON DUPLICATE KEY UPDATE " + fence +
                               " = LAST_INSERT_ID(" + fence + " + 1)",
                           {Param::str(name)});
            same_session();
            if (r.insert_id == 0)
                throw FencingUnavailable("Fencing counter " + fences_table_ +
                                         " returned no token for lock \"" + name + "\"");
            return static_cast<long long>(r.insert_id);
        }
        run("INSERT INTO " + table + " (" + q_name_ + ", " + fence +
                ") VALUES (?, 1) ON DUPLICATE KEY UPDATE " + fence + " = " + fence + " + 1",
            {Param::str(name)});
        Result r = run("SELECT " + fence + " FROM " + table + " WHERE " + q_name_ + " = ?",
                       {Param::str(name)});
        same_session();
        const long long token = r.value ? to_ll(r.value) : 0;
        if (token <= 0)
            throw FencingUnavailable("Fencing counter " + fences_table_ +
                                     " returned no token for lock \"" + name + "\"");
        return token;
    } catch (const SqlError &e) {
        throw FencingUnavailable("Fencing counter table " + fences_table_ +
                                 " is missing or unusable (" + e.what() + ")");
    }
}

void Protocol::lock(const std::string &name, const Deadline &deadline, long long ttl,
                    const std::function<bool()> &interrupted, WaitMemory *memory) {
    if (name_length(name) > kMaxNameChars)
        throw InvalidArgument("Lock name \"" + name +
                              "\" is longer than 64 characters (MySQL limit)");
    if (!is_ascii(name)) refuse_unstorable_name(name);
    auto check_interrupt = [&] { throw_if_interrupted(interrupted); };
    WaitMemory scratch;
    if (lock_queued(name, deadline, ttl, interrupted, memory ? *memory : scratch) ==
        Queued::Acquired)
        return;
    double instant_backoff = 0.001;
    for (;;) {
        // The row and GET_LOCK(name, 0) in one INSERT. On a session of our own,
        // LAST_INSERT_ID(expr) reports GET_LOCK's result in the OK packet: one round trip when
        // uncontended. On a shared session (PDO) the application's LAST_INSERT_ID() must not
        // change: the package's order.
        bool owned_row = false;
        if (session_.exclusive()) {
            bool duplicate = false;
            try {
                Result r = run("INSERT INTO " + q_table_ + " (" + q_name_ + ", " + q_created_ +
                                   ", " + q_ttl_ + ", " + q_conn_ + ", " + q_acquired_ +
                                   ") VALUES (?, unix_timestamp(), ?, connection_id(), "
                                   "LAST_INSERT_ID(GET_LOCK(?, 0)))",
                               {Param::str(name), Param::integer(ttl), Param::str(name)});
                if (r.insert_id == 1) return;
                owned_row = true;  // GET_LOCK busy: the row is ours, take GET_LOCK below
            } catch (const SqlError &e) {
                if (e.code() != kErDupEntry && e.sqlstate() != "23000") throw;
                duplicate = true;
            }
            // GET_LOCK was evaluated before the duplicate was found: give back what we took.
            if (duplicate) run("SELECT RELEASE_LOCK(?)", {Param::str(name)});
        } else {
            owned_row = register_row(name, ttl);
        }
        bool took_over = false;
        if (!owned_row) owned_row = took_over = take_over_stale_row(name, ttl);
        if (owned_row) {
            std::exception_ptr failure;
            bool got = false;
            try {
                got = take_get_lock_owning_row(name, took_over, deadline, check_interrupt);
            } catch (const SessionLost &) {
                throw;  // the row went with the session
            } catch (...) {
                failure = std::current_exception();
            }
            if (failure) give_back_then_rethrow([&] { deregister(name); }, failure);
            if (got) return;
            // Our row was taken while we waited for GET_LOCK: start over.
        }

        if (deadline.expired()) throw LockTimeout("timeout");
        check_interrupt();

        // The row's TTL left, whether our own session holds it, and the session that marked
        // it acquired (0 if nobody did). A row of our connection id counts as our session's
        // only while the session holds GET_LOCK too: connection ids restart with the server,
        // and a row left before a restart may carry ours. Such a row is waited for and taken
        // over at its TTL, as another session's would be.
        Result row = run("SELECT " + q_created_ + " + " + q_ttl_ + " - unix_timestamp(), " +
                             q_conn_ + " = connection_id() AND NOT " +
                             row_holder_gone(q_name_, q_conn_) + ", IF(" + q_acquired_ + ", " +
                             q_conn_ + ", 0) FROM " + q_table_ + " WHERE " + q_name_ + " = ?",
                         {Param::str(name)}, true, true);
        if (row.rows.empty()) continue;  // released meanwhile
        if (row.rows[0].size() > 1 && row.rows[0][1] && *row.rows[0][1] == "1") {
            // Our own session holds it: nobody else can release it while we wait. Sleep out
            // the deadline in short slices, so that signal handlers still run.
            for (;;) {
                check_interrupt();
                if (deadline.expired()) throw LockTimeout("timeout");
                sleep_seconds(deadline.remaining_seconds(kInterruptSliceSeconds));
            }
        }
        long long ttl_left = to_ll(row.rows[0][0]);
        const long long marked_by =
            row.rows[0].size() > 2 && row.rows[0][2] ? to_ll(row.rows[0][2]) : 0;
        // The row expires at the end of second created+ttl; take_over_stale_row() sees it one
        // second later. The server-side wait is bounded: by the deadline, the row's TTL, the
        // session's read timeout and, when PHP may have handlers to run, a short slice (this
        // path's waits look at the row after each slice; they do not keep a place in line).
        double cap = std::min(static_cast<double>(std::max(ttl_left, 0LL)) + 1.0,
                              session_.max_wait_seconds());
        if (interrupted) cap = std::min(cap, kInterruptSliceSeconds);
        double wait = deadline.remaining_seconds(cap);
        // A grant is a hand-off only if, as we came, GET_LOCK was held by the session that
        // marked the row: that holder let go. Anyone else holding it for a moment (a
        // contender on this path between its statements, an application's own GET_LOCK) hands
        // nothing over, and an unmarked row then standing is a client's lock in the making
        // (the package's order), which only a hand-off takes.
        auto before = Deadline::Clock::now();
        // (With no marked row, marked_by 0 names no session: never a hand-off.)
        bool handed_off = false;
        Result got = split_conditional_wait(
            run("SELECT IS_USED_LOCK(?) = ?, GET_LOCK(?, ?)",
                {Param::str(name), Param::integer(marked_by), Param::str(name),
                 Param::real(std::round(wait * 1000) / 1000)},
                true, true),
            &handed_off);
        const bool instant =
            std::chrono::duration<double>(Deadline::Clock::now() - before).count() < 0.002;
        if (get_lock_granted(got, name)) {
            // Holding GET_LOCK, the row becomes ours as on the queued path. (Until 2026-11-26
            // this path gave every grant back: it lost its turn to the waiter behind it on
            // every release, and under a hot lock whose holder outlived its TTL the waiters
            // that had fallen back here timed out while the others took turns.)
            if (claim_granted(name, ttl, false, handed_off, session_.generation())) return;
            run("SELECT RELEASE_LOCK(?)", {Param::str(name)});
            // Granted at once although a row stands (its owner is between INSERT and
            // GET_LOCK, or died with lock_acquired unset): back off instead of spinning.
            if (instant) {
                sleep_seconds(deadline.remaining_seconds(instant_backoff));
                instant_backoff = std::min(instant_backoff * 2, 0.1);
            } else {
                instant_backoff = 0.001;
            }
        }
    }
}

// A strict sql_mode refuses the INSERT of a name the table's character set cannot hold; a
// non-strict one stores it mangled ('?') with a warning, and every later statement that looks
// for the row fails (illegal mix of collations): a lock that no release could ever end. The
// comparison fails in either mode, so it is asked before anything is taken (names outside
// ASCII only: those within it are stored as sent by every character set MySQL has).
void Protocol::refuse_unstorable_name(const std::string &name) {
    try {
        run("SELECT 1 FROM " + q_table_ + " WHERE " + q_name_ + " = ? LIMIT 0", {Param::str(name)},
            true, true);
    } catch (const SqlError &e) {
        if (e.code() != kErCantAggregateCollations) throw;
        throw SqlError(e.code(), e.sqlstate(),
                       "Lock name cannot be stored in the lock table's character set: " +
                           std::string(e.what()));
    }
}

bool Protocol::unlock(const std::string &name) {
    return delete_own_row(name, false);
}

bool Protocol::force_release(const std::string &name, double settle_seconds) {
    // NULL: free; 0: this session holds it; otherwise the holding session's id.
    Result who = run("SELECT IF(IS_USED_LOCK(?) = CONNECTION_ID(), 0, IS_USED_LOCK(?))",
                     {Param::str(name), Param::str(name)});
    if (who.value && to_ll(who.value) == 0) {
        delete_own_row(name, false);  // our row and our GET_LOCK, in one statement
        return true;
    }
    if (!who.value) {
        // Nobody holds GET_LOCK: only a row still marked acquired is left over (a row not
        // marked is a client's between its INSERT and its GET_LOCK, and stays).
        Result stale = run("DELETE FROM " + q_table_ + " WHERE " + q_name_ + " = ? AND " +
                               q_acquired_ + " AND " + row_holder_gone(q_name_, q_conn_),
                           {Param::str(name)});
        return stale.affected > 0;
    }
    const long long holder = to_ll(who.value);
    kill_session(holder);
    // KILL returns before the server has torn the session down and let its locks go.
    const auto until =
        Deadline::Clock::now() + std::chrono::duration_cast<Deadline::Clock::duration>(
                                     std::chrono::duration<double>(settle_seconds));
    double pause = 0.001;
    for (;;) {
        Result still = run("SELECT IFNULL(IS_USED_LOCK(?), 0) = ?",
                           {Param::str(name), Param::integer(holder)});
        if (!still.value || *still.value != "1" || Deadline::Clock::now() >= until) break;
        sleep_seconds(pause);
        pause = std::min(pause * 2, 0.02);
    }
    // Only the killed session's row: a waiter woken by the KILL may hold the lock and have
    // written its own row already.
    run("DELETE FROM " + q_table_ + " WHERE " + q_name_ + " = ? AND " + q_conn_ + " = ?",
        {Param::str(name), Param::integer(holder)});
    return true;
}

bool Protocol::release_at_end(const std::string &name) {
    return delete_own_row(name, true);
}

// Deleting our row and releasing GET_LOCK in one statement: the MyISAM table lock keeps a woken
// waiter's INSERT out until the row is gone. When the row is not ours (any more), whatever
// GET_LOCK levels the session holds for the name are let go, as the package does.
// The row is matched by the table's collation (case and trailing spaces ignored), GET_LOCK by
// the server's lock names: the row goes only with a GET_LOCK of this very spelling that the
// session holds. Otherwise unlock('a') would delete the row of a held 'A' and leave its
// GET_LOCK, a holder without a row, which a waiter takes for a dead one and KILLs the session.
bool Protocol::delete_own_row(const std::string &name, bool only_if_acquired) {
    Result r = run("DELETE FROM " + q_table_ + " WHERE " + q_name_ + " = ? AND " + q_conn_ +
                       " = connection_id() AND " + (only_if_acquired ? q_acquired_ + " AND " : "") +
                       "IS_USED_LOCK(?) = connection_id() AND IFNULL(RELEASE_LOCK(?), 0) >= 0",
                   {Param::str(name), Param::str(name), Param::str(name)});
    if (r.affected == 1) return true;
    for (int i = 0; i < 1000; ++i) {
        Result rel = run("SELECT RELEASE_LOCK(?)", {Param::str(name)});
        if (!rel.value || *rel.value != "1") break;
    }
    return false;
}

bool Protocol::has_remaining_ttl(const std::string &name, long long min_ttl) {
    Result r = run("SELECT 1 FROM " + q_table_ + " WHERE " + q_name_ + " = ? AND " + q_conn_ +
                       " = connection_id() AND " + q_created_ + " + " + q_ttl_ +
                       " > unix_timestamp() + ? AND IFNULL(IS_USED_LOCK(?), 0) = connection_id()",
                   {Param::str(name), Param::integer(min_ttl), Param::str(name)});
    return r.value && *r.value == "1";
}

bool Protocol::extend(const std::string &name, long long ttl) {
    // Zero rows changed also when created and ttl already had these values (the same second,
    // e.g. a refresh right after the acquisition). A session of our own learns that the row
    // matched from LAST_INSERT_ID(expr) in the SET, evaluated only for a matched row, in the
    // same OK packet; a shared session (PDO) must leave LAST_INSERT_ID() alone and asks again.
    const bool reports_match = session_.exclusive();
    Result r = run(
        "UPDATE " + q_table_ + " SET " + q_created_ + " = unix_timestamp(), " + q_ttl_ + " = ?" +
            (reports_match ? ", " + q_conn_ + " = LAST_INSERT_ID(" + q_conn_ + ")" : "") +
            " WHERE " + q_name_ + " = ? AND " + q_conn_ +
            " = connection_id() AND IFNULL(IS_USED_LOCK(?), 0) = connection_id()",
        {Param::integer(ttl), Param::str(name), Param::str(name)});
    if (r.affected == 1) return true;
    if (reports_match) return r.insert_id != 0;
    return has_remaining_ttl(name, -1);
}

bool Protocol::extend_for(const std::string &name, unsigned long long holder, long long ttl,
                          const std::string &identity) {
    std::string held_by_holder = q_name_ + " = ? AND " + q_conn_ + " = ? AND " + q_acquired_ +
                                 " AND IFNULL(IS_USED_LOCK(?), 0) = ?";
    const auto id = Param::integer(static_cast<long long>(holder));
    std::vector<Param> held_params{Param::str(name), id, Param::str(name), id};
    if (!identity.empty()) {
        held_by_holder += " AND IFNULL(IS_USED_LOCK(?), 0) = ?";
        held_params.push_back(Param::str(identity));
        held_params.push_back(id);
    }
    // Never shortens: a renewal the server runs late (its client gave up waiting) must not cut
    // back a refresh to a longer TTL. ttl is assigned first: it reads the old created.
    std::vector<Param> params{Param::integer(ttl)};
    params.insert(params.end(), held_params.begin(), held_params.end());
    Result r = run("UPDATE " + q_table_ + " SET " + q_ttl_ + " = GREATEST(?, " + q_created_ +
                       " + " + q_ttl_ + " - unix_timestamp()), " + q_created_ +
                       " = unix_timestamp() WHERE " + held_by_holder,
                   params);
    if (r.affected == 1) return true;
    // Zero rows changed also when created and ttl already had these values (same second).
    Result still = run("SELECT COUNT(*) FROM " + q_table_ + " WHERE " + held_by_holder + " AND " +
                           q_created_ + " + " + q_ttl_ + " >= unix_timestamp()",
                       held_params);
    return still.value && *still.value != "0";
}

std::optional<long long> Protocol::remaining_seconds(const std::string &name) {
    Result r = run("SELECT " + q_created_ + " + " + q_ttl_ + " - unix_timestamp() FROM " +
                       q_table_ + " WHERE " + q_name_ + " = ? AND " + q_conn_ +
                       " = connection_id() AND IFNULL(IS_USED_LOCK(?), 0) = connection_id()",
                   {Param::str(name), Param::str(name)});
    if (!r.value) return std::nullopt;
    return std::strtoll(r.value->c_str(), nullptr, 10);
}

void Protocol::repair_table() {
    ++statements_;
    Result r = session_.execute("REPAIR TABLE " + q_table_, {}, false, true);
    int type_col = 2, text_col = 3;
    for (std::size_t i = 0; i < r.columns.size(); ++i) {
        if (r.columns[i] == "Msg_type") type_col = static_cast<int>(i);
        if (r.columns[i] == "Msg_text") text_col = static_cast<int>(i);
    }
    std::string status;
    bool have_status = false;
    std::string messages;
    for (const Row &row : r.rows) {
        auto cell = [&](int i) {
            return i < static_cast<int>(row.size()) && row[i] ? *row[i] : std::string();
        };
        if (cell(type_col) == "status") {
            status = cell(text_col);
            have_status = true;
        } else {
            if (!messages.empty()) messages += ", ";
            messages += cell(type_col) + ": " + cell(text_col);
        }
    }
    std::string upper = status;
    std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
    if (!have_status || status.empty() || upper != "OK")
        throw TableRepairFailed("Table " + table_ +
                                " seams to be corrupted. Repair failed with status \"" + status +
                                "\". (" + messages + ")");
}

}  // namespace nativelock::mysql
