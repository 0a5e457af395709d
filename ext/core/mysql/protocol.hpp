// The SharedLock protocol (its-mieger/mysql-shared-locks compatible rows and GET_LOCK names),
// independent of how statements reach the server.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/deadline.hpp"
#include "mysql/session.hpp"

namespace nativelock::mysql {

enum class QuoteStyle { Default = 0, Ansi = 1 };

// lock(): the wait ended without the lock.
class LockTimeout : public Error {
  public:
    using Error::Error;
};

// lock(): the lock could not be taken for a reason other than time (message is the package's).
class AcquireFailed : public Error {
  public:
    using Error::Error;
};

// lock(): the caller's interrupted() asked to stop waiting (a PHP signal handler is due). Nothing
// is held; the caller runs what is pending and calls lock() again with the same deadline.
class WaitInterrupted : public Error {
  public:
    using Error::Error;
};

// tryRepairTable() failed (message is the package's).
class TableRepairFailed : public Error {
  public:
    using Error::Error;
};

// The fencing counter table is missing or refuses the statement (message names it and the
// server's error). The lock itself was taken: the caller releases it. An AcquireFailed: the
// acquisition fails as a whole (SharedLockAcquireException, Nativelock\LockException).
class FencingUnavailable : public AcquireFailed {
  public:
    using AcquireFailed::AcquireFailed;
};

// TTLs and minimum TTLs are clamped to this many seconds (~31 years): no practical limit, and
// created + ttl stays far inside MySQL's BIGINT (a larger value would overflow there or, through
// a double-to-integer conversion, wrap into an already expired lock).
constexpr long long kMaxTtlSeconds = 1'000'000'000;

// Seconds as the protocol's integer TTL: NaN is the caller's to reject; INF and anything at or
// above kMaxTtlSeconds is kMaxTtlSeconds; fractions round like the package's (int) cast would not,
// to the nearest second.
long long ttl_seconds(double seconds);

// The longest lock name the table (varchar(64)) holds, in characters.
constexpr std::size_t kMaxNameChars = 64;

// Number of characters of a name: UTF-8 code points if valid UTF-8, else bytes.
std::size_t name_length(const std::string &name);

// What an acquisition's wait has seen, kept by the caller across the WaitInterrupted that lets
// PHP's signal handlers run (the caller then calls lock() again with the same deadline and the
// same WaitMemory). Without it every call would start its looks afresh, and signals more
// frequent than a look (0.2 s) would keep a holder past its TTL, or one holding GET_LOCK
// without a row, from ever being found: the waiter would wait out its whole timeout.
struct WaitMemory {
    // When the side session next looks at the row, during the wait in line.
    std::optional<Deadline> next_look;
    // Since when every look found GET_LOCK held with no row of the name.
    std::optional<Deadline::Clock::time_point> rowless_since;
};

class Protocol {
  public:
    Protocol(Session &session, QuoteStyle style, std::string table = "shared_locks");

    // Acquires before `deadline`; throws LockTimeout, AcquireFailed, InvalidArgument, session
    // errors, or WaitInterrupted when `interrupted` (asked between bounded waits) says so.
    // `memory`: the same object for every call of one acquisition (see WaitMemory), or none.
    void lock(const std::string &name, const Deadline &deadline, long long ttl,
              const std::function<bool()> &interrupted = nullptr, WaitMemory *memory = nullptr);
    // Deletes our row and releases GET_LOCK; false if the row was not ours anymore.
    bool unlock(const std::string &name);
    // Request-end release: like unlock(), but a row whose lock_acquired mark is unset is left
    // for contenders to clean after its TTL, as it is when the package's process ends.
    bool release_at_end(const std::string &name);
    bool has_remaining_ttl(const std::string &name, long long min_ttl);
    // Native API: sets a lock this session holds to expire `ttl` seconds from now; false if
    // the session does not hold it (expired and taken over, or never held).
    bool extend(const std::string &name, long long ttl);
    // Auto-renewal, from another session: sets the lock that session `holder` (its
    // connection_id()) holds to expire `ttl` seconds from now, or leaves it if it expires later
    // (never shortens); false if it no longer holds it (its row is gone or another session's,
    // or it lost GET_LOCK). `identity`, if not empty, is the holder's identity_lock(): a session
    // that got the holder's connection id after a server restart does not hold it.
    bool extend_for(const std::string &name, unsigned long long holder, long long ttl,
                    const std::string &identity = {});
    // Native API, an administrator's action (Laravel's forceRelease()): frees `name` whoever
    // holds it. Another session that holds GET_LOCK is ended (KILL), as a take-over ends a
    // holder past its TTL, so every lock that session held goes with it and its process finds
    // them lost; this session's own hold is released. The row goes too. Waits (up to
    // `settle_seconds`) until the server has let the killed session's lock go, so the name is
    // free on return. True if anything was held or registered.
    bool force_release(const std::string &name, double settle_seconds = 2.0);
    // Native API: seconds left of a lock this session holds; nothing if it does not hold it.
    std::optional<long long> remaining_seconds(const std::string &name);
    void repair_table();

    // Fencing: the next token of `name`, drawn from the counter table fences_table() while this
    // session holds the lock (call right after lock()), so a later holder, which needs GET_LOCK
    // and so this session's end or release first, draws a greater one. On an exclusive session
    // one statement (the new value arrives as the OK packet's insert id, via
    // LAST_INSERT_ID(expr)); on a shared one (PDO) an INSERT … ON DUPLICATE KEY UPDATE and a
    // SELECT, leaving the application's LAST_INSERT_ID() alone. Throws FencingUnavailable (with
    // the server's message) when the table is missing or unusable.
    long long draw_fence(const std::string &name);
    // "<table>_fences": name varchar(64) PRIMARY KEY, fence bigint unsigned (MyISAM, like the
    // lock table: a rolled-back transaction must never take an increment back).
    const std::string &fences_table() const { return fences_table_; }
    // The CREATE TABLE statement of the counter table (README, test servers).
    std::string create_fences_table_sql() const;

    std::string quote(const std::string &identifier) const;

    // Whether a session that holds GET_LOCK on the name while this one owns the row, and has
    // no row of its own, is ended (KILL) after a second. The package's rule (SharedLock): "the
    // entry in the lock table is representing the lock". Off (native API, bridge): such a
    // session may be no client of the table at all (php-lock's MySQLMutex, an application's
    // own GET_LOCK), and is waited for; the session of a stale row taken over is still ended
    // (at once if it held the lock then and has not let go, after a second of holding GET_LOCK
    // if not).
    void set_kill_rowless_holders(bool kill) { kill_rowless_holders_ = kill; }

    // Statistics for tests: statements sent by this protocol object.
    unsigned statements() const { return statements_; }

  private:
    template <typename Statement>
    Result with_repair(const Statement &statement);
    Result run(const std::string &sql, const std::vector<Param> &params, bool prepared = true,
               bool want_rows = false);
    // run() for a statement that waits in GET_LOCK (rows wanted): through the session's
    // execute_waiting(), which sets *cancelled when `stop` ended the wait.
    Result run_waiting(const std::string &sql, const std::vector<Param> &params,
                       const std::function<bool()> &stop, bool *cancelled);
    // Whether a wait that execute_waiting() ended (`got`: its reply) was granted first.
    bool cancelled_wait_granted(const Result &got, const std::string &name);
    bool register_row(const std::string &name, long long ttl);
    bool take_get_lock(const std::string &name);
    void deregister(const std::string &name);
    bool take_over_stale_row(const std::string &name, long long ttl);
    bool still_holds(const std::string &name, long long victim);
    void kill_session(long long victim);
    bool delete_own_row(const std::string &name, bool only_if_acquired);
    void refuse_unstorable_name(const std::string &name);
    // True once GET_LOCK is ours; false if our row was taken meanwhile (nothing is held).
    bool take_get_lock_owning_row(const std::string &name, bool took_over, const Deadline &deadline,
                                  const std::function<void()> &check_interrupt);
    // A look at a name's row: whether it stands, its TTL left in whole seconds (negative:
    // past it), and the seconds until take_over_stale_row() will take it for stale.
    struct RowLook {
        bool has_row = false;
        long long ttl_left = 0;
        double seconds_until_stale = 0;
    };
    std::string look_sql() const;
    static RowLook parse_look(const Result &row);
    enum class Queued { Acquired, Fallback };
    Queued lock_queued(const std::string &name, const Deadline &deadline, long long ttl,
                       const std::function<bool()> &interrupted, WaitMemory &seen);
    // When a claim left a row past its TTL whose holder still holds GET_LOCK under the row's own
    // spelling: KILLs that holder and waits (up to 5 s) until it has let go; false if there
    // was none.
    bool end_hung_holder_of_stale_row(const std::string &name);
    bool claim_row_holding_get_lock(const std::string &name, long long ttl, bool row_stands,
                                    bool granted_after_waiting);
    // claim_row_holding_get_lock() for a grant made on session generation `granted_on`. On any
    // failure what the grant took is given back before the failure goes on: GET_LOCK, or, when
    // the session was replaced meanwhile (the claim then ran on a session without GET_LOCK),
    // the row the claim may have written there.
    bool claim_granted(const std::string &name, long long ttl, bool row_stands,
                       bool granted_after_waiting, std::uint64_t granted_on);

    Session &session_;
    QuoteStyle style_;
    std::string table_;
    std::string fences_table_;
    std::string q_table_, q_name_, q_created_, q_ttl_, q_conn_, q_acquired_;
    unsigned statements_ = 0;
    bool kill_rowless_holders_ = true;
};

}  // namespace nativelock::mysql
