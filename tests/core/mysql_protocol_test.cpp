// The SharedLock protocol: against a scripted session (statement count, SQL shape, error
// handling) and against the real mariadbd of tests/servers (skipped unless it answers; a skip
// fails in CI).
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "mysql/native_session.hpp"
#include "mysql/protocol.hpp"

using namespace nativelock;
using namespace nativelock::mysql;

namespace {

// A session that records statements and answers from a script.
class ScriptedSession : public Session {
  public:
    bool exclusive_ = true;
    bool exclusive() const override { return exclusive_; }
    std::vector<std::string> sql;
    std::function<Result(const std::string &, const std::vector<Param> &)> answer;

    Result execute(const std::string &s, const std::vector<Param> &params, bool, bool) override {
        // On a PDO session a statement is a PHP call: never from inside a C++ catch handler.
        EXPECT_FALSE(std::current_exception()) << "statement run inside a catch handler: " << s;
        sql.push_back(s);
        return answer(s, params);
    }
};

Result affected(std::uint64_t n) {
    Result r;
    r.affected = n;
    return r;
}

// What the first INSERT returns when GET_LOCK was granted and the row written.
Result granted() {
    return affected(1);
}

// What the first INSERT fails with while GET_LOCK is taken (IF() evaluates `~0 + 1`).
SqlError busy() {
    return SqlError(1690, "22003", "BIGINT UNSIGNED value is out of range in '~0 + 1'");
}

Result value(const std::string &v) {
    Result r;
    r.has_row = true;
    r.value = v;
    r.rows.push_back({v});
    return r;
}

// How the look for a holder hung past its TTL under another spelling begins (after a claim that
// took no row).
constexpr const char *kHungHolderLook = "SELECT `connection_id`, `name` FROM";

// One statement each way, on a session of our own and on a shared one (a PDO) alike; the
// first leaves LAST_INSERT_ID() alone (an application's PDO may read it).
TEST(MysqlProtocol, UncontendedLockAndUnlockTakeTwoStatements) {
    for (bool exclusive : {true, false}) {
        ScriptedSession s;
        s.exclusive_ = exclusive;
        s.answer = [](const std::string &sql, const std::vector<Param> &) {
            EXPECT_EQ(sql.find("LAST_INSERT_ID"), std::string::npos) << sql;
            if (sql.rfind("INSERT", 0) == 0 || sql.rfind("DELETE", 0) == 0) return affected(1);
            ADD_FAILURE() << "unexpected " << sql;
            return Result();
        };
        Protocol p(s, QuoteStyle::Default);
        p.lock("a", nativelock::Deadline::after(5), 10);
        EXPECT_TRUE(p.unlock("a"));
        ASSERT_EQ(s.sql.size(), 2u) << exclusive;
        EXPECT_NE(s.sql[0].find("INSERT INTO `shared_locks` (`lock_acquired`, `name`, `created`, "
                                "`ttl`, `connection_id`)"),
                  std::string::npos);
        EXPECT_NE(s.sql[0].find("VALUES (IF(GET_LOCK(?, 0) = 1 AND (@nativelock_grant := ?) IS "
                                "NOT NULL, true, ~0 + 1), ?, unix_timestamp(), ?, "
                                "connection_id())"),
                  std::string::npos);
        EXPECT_NE(s.sql[1].find("RELEASE_LOCK(?)"), std::string::npos);
    }
}

// A shared session (a PDO) that finds the lock taken waits in line in GET_LOCK like a session of
// our own, and claims the row while holding the grant: its first try wrote no row (nothing to
// withdraw, nothing a granted waiter could mistake for a client's lock in the making), no
// RELEASE_LOCK between the grant and the row (a newcomer could barge there), and LAST_INSERT_ID()
// is never touched.
TEST(MysqlProtocol, SharedSessionWaitsInLineAndClaimsTheRowOnTheGrant) {
    ScriptedSession s;
    s.exclusive_ = false;
    int inserts = 0;
    s.answer = [&](const std::string &sql, const std::vector<Param> &) -> Result {
        EXPECT_EQ(sql.find("LAST_INSERT_ID"), std::string::npos) << sql;
        if (sql.rfind("INSERT", 0) == 0) {
            if (++inserts == 1) throw busy();
            return affected(1);
        }
        if (sql.rfind("SELECT GET_LOCK", 0) == 0) return value("1");  // the wait in line
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock("a", nativelock::Deadline::after(5), 10);
    std::vector<std::string> expected_kinds{"INSERT", "SELECT GET_LOCK", "INSERT"};
    ASSERT_EQ(s.sql.size(), expected_kinds.size());
    for (std::size_t i = 0; i < s.sql.size(); ++i)
        EXPECT_EQ(s.sql[i].rfind(expected_kinds[i], 0), 0u) << s.sql[i];
    // The claim marks the row acquired in the INSERT itself.
    EXPECT_NE(s.sql.back().find("connection_id(), true)"), std::string::npos);
}

// A first try that meets a row with GET_LOCK free (granted before the duplicate was found)
// judges the row holding GET_LOCK: taken over only if stale (its holder gone, or past its TTL),
// never because its text is our spelling; else GET_LOCK is given back and the row-first path
// decides. The same on a session of our own and on a shared one.
TEST(MysqlProtocol, FirstTryMeetingARowWithGetLockFreeTakesItOnlyIfStale) {
    for (bool exclusive : {true, false}) {
        for (bool stale : {true, false}) {
            ScriptedSession s;
            s.exclusive_ = exclusive;
            s.answer = [&](const std::string &sql, const std::vector<Param> &) -> Result {
                if (sql.rfind("INSERT", 0) == 0) throw SqlError(1062, "23000", "Duplicate entry");
                if (sql.rfind("UPDATE", 0) == 0) {
                    EXPECT_EQ(sql.find("BINARY"), std::string::npos) << sql;
                    return affected(stale ? 1 : 0);
                }
                if (sql.rfind("SELECT RELEASE_LOCK", 0) == 0) return value("1");
                // The row-first path's one attempt (timeout 0): its row check.
                if (sql.rfind("SELECT", 0) == 0) return value("5");
                ADD_FAILURE() << "unexpected " << sql;
                return Result();
            };
            Protocol p(s, QuoteStyle::Default);
            if (stale) {
                p.lock("a", nativelock::Deadline::after(0), 10);
                ASSERT_EQ(s.sql.size(), 2u);  // INSERT with GET_LOCK, the take-over
            } else {
                EXPECT_THROW(p.lock("a", nativelock::Deadline::after(0), 10), LockTimeout);
                // INSERT with GET_LOCK, the take-over, the look for a holder hung under another
                // spelling (none), then GET_LOCK given back.
                ASSERT_GE(s.sql.size(), 4u);
                EXPECT_EQ(s.sql[2].rfind(kHungHolderLook, 0), 0u) << s.sql[2];
                EXPECT_EQ(s.sql[3].rfind("SELECT RELEASE_LOCK", 0), 0u) << "GET_LOCK given back";
            }
        }
    }
}

// A waiter granted GET_LOCK whose INSERT met a row that was gone by its UPDATE (a client of the
// row-first order withdrew it) inserts again instead of giving its place in the queue away.
TEST(MysqlProtocol, GrantedWaiterInsertsAgainWhenTheRowItMetIsWithdrawn) {
    ScriptedSession s;
    int inserts = 0;
    s.answer = [&](const std::string &sql, const std::vector<Param> &) -> Result {
        if (sql.rfind("INSERT", 0) == 0) {
            ++inserts;
            if (inserts == 1) throw busy();
            if (inserts == 2) throw SqlError(1062, "23000", "Duplicate entry");
            return affected(1);
        }
        if (sql.rfind("SELECT GET_LOCK", 0) == 0) return value("1");
        if (sql.rfind("UPDATE", 0) == 0) return affected(0);  // withdrawn meanwhile
        if (sql.rfind(kHungHolderLook, 0) == 0) return Result();
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock("a", nativelock::Deadline::after(5), 10);
    ASSERT_EQ(s.sql.size(), 6u);
    EXPECT_EQ(s.sql[3].rfind("UPDATE", 0), 0u);
    EXPECT_EQ(s.sql[4].rfind(kHungHolderLook, 0), 0u);
    EXPECT_EQ(s.sql[5].rfind("INSERT", 0), 0u);
}

// A session that found a name taken joins the line at once on its next acquisitions of it (no
// first INSERT that fails while others wait), tries first again every
// ContentionHints::kProbeEvery-th time, and goes back to trying first once that try succeeds.
// A single attempt (timeout 0) always tries.
TEST(MysqlProtocol, HotNameJoinsTheLineAtOnceAndIsProbedNowAndThen) {
    ScriptedSession s;
    bool taken = true;
    s.answer = [&](const std::string &sql, const std::vector<Param> &) -> Result {
        if (sql.find("IF(GET_LOCK(?, 0) = 1") != std::string::npos) {
            if (taken) throw busy();
            return affected(1);
        }
        if (sql.rfind("INSERT", 0) == 0) return affected(1);  // the claim
        if (sql.rfind("SELECT GET_LOCK", 0) == 0) return value("1");
        if (sql.rfind("SELECT IS_FREE_LOCK(?), GET_LOCK(?, ?)", 0) == 0) {
            Result r = value("0");  // taken as it came, then granted: a hand-off
            r.rows[0].push_back(std::string("1"));
            return r;
        }
        if (sql.rfind("DELETE", 0) == 0) return affected(1);
        if (sql.rfind("SELECT `created`", 0) == 0) return value("5");  // the holder's TTL left
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
    auto first_tries = [&] {
        std::size_t n = 0;
        for (const std::string &sql : s.sql)
            n += sql.find("IF(GET_LOCK(?, 0) = 1") != std::string::npos;
        return n;
    };
    auto cycle = [&](double timeout) {
        Protocol p(s, QuoteStyle::Default);  // one Protocol per call, as the shim makes them
        p.lock("hot", nativelock::Deadline::after(timeout), 10);
        EXPECT_TRUE(p.unlock("hot"));
    };
    cycle(5);  // taken: tried, then waited in line
    EXPECT_EQ(first_tries(), 1u);
    for (unsigned i = 1; i < ContentionHints::kProbeEvery; ++i) cycle(5);
    EXPECT_EQ(first_tries(), 1u) << "joined the line at once";
    cycle(5);  // the probe, still taken
    EXPECT_EQ(first_tries(), 2u);
    {
        Protocol p(s, QuoteStyle::Default);  // a single attempt always tries
        EXPECT_THROW(p.lock("hot", nativelock::Deadline::after(0), 10), LockTimeout);
        EXPECT_EQ(first_tries(), 3u);
    }
    taken = false;
    for (unsigned i = 1; i < ContentionHints::kProbeEvery; ++i) cycle(5);
    EXPECT_EQ(first_tries(), 3u);
    cycle(5);  // the probe finds it free
    EXPECT_EQ(first_tries(), 4u);
    const std::size_t before = s.sql.size();
    cycle(5);
    EXPECT_EQ(first_tries(), 5u) << "cooled down: tried first again";
    EXPECT_EQ(s.sql.size() - before, 2u);  // one statement each way
    // Another name is not affected.
    Protocol p(s, QuoteStyle::Default);
    p.lock("cold", nativelock::Deadline::after(5), 10);
    EXPECT_EQ(first_tries(), 6u);
}

TEST(MysqlProtocol, AnsiQuoteStyle) {
    ScriptedSession s;
    s.answer = [](const std::string &, const std::vector<Param> &) { return granted(); };
    Protocol p(s, QuoteStyle::Ansi);
    p.lock("a", nativelock::Deadline::after(0), 10);
    EXPECT_NE(s.sql[0].find("INSERT INTO \"shared_locks\" (\"lock_acquired\", \"name\""),
              std::string::npos);
}

TEST(MysqlProtocol, NamesAreBoundNeverSpliced) {
    ScriptedSession s;
    std::string evil = "x'); DROP TABLE shared_locks; --";
    s.answer = [&](const std::string &sql, const std::vector<Param> &params) {
        EXPECT_EQ(sql.find(evil), std::string::npos);
        EXPECT_EQ(params[0].s, evil);
        return granted();
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock(evil, nativelock::Deadline::after(0), 10);
    p.unlock(evil);
}

// The native session's waits go as text, to be awaited in slices: a name is spliced as its
// bytes in hex, introduced as binary (the user-lock functions key a name by its bytes; a
// character set introducer would refuse bytes invalid in it, which a bound parameter passes),
// never as text; `?` inside quotes is no placeholder; counts that differ are refused.
TEST(MysqlProtocol, WaitStatementsSpliceNamesAsHexOnly) {
    const std::string evil = "x'); DROP TABLE shared_locks; -- ?\\\xff";
    const std::string sql =
        splice_params("SELECT GET_LOCK(?, ?), `a?b`, 'c?', \"d?\", ?",
                      {Param::str(evil), Param::real(0.25), Param::integer(-7)});
    EXPECT_EQ(sql,
              "SELECT GET_LOCK(_binary X'7827293b2044524f50205441424c45207368617265645f6c6f636b"
              "733b202d2d203f5cff', 0.250), `a?b`, 'c?', \"d?\", -7");
    // Decimals by integers (no locale's comma), in thousandths.
    EXPECT_EQ(splice_params("?,?,?,?", {Param::real(0), Param::real(29.0006), Param::real(-1.5),
                                        Param::real(1e9)}),
              "0.000,29.001,-1.500,1000000000.000");
    EXPECT_EQ(splice_params("SELECT ?", {Param::str("")}), "SELECT _binary X''");
    EXPECT_THROW(splice_params("SELECT ?, ?", {Param::str("a")}), InvalidArgument);
    EXPECT_THROW(splice_params("SELECT ?", {Param::str("a"), Param::str("b")}), InvalidArgument);
    EXPECT_THROW(splice_params("SELECT ?", {Param::real(std::numeric_limits<double>::infinity())}),
                 InvalidArgument);
}

TEST(MysqlProtocol, TimeoutZeroIsOneAttempt) {
    ScriptedSession s;
    s.answer = [](const std::string &sql, const std::vector<Param> &) -> Result {
        if (sql.rfind("INSERT", 0) == 0) throw SqlError(1062, "23000", "Duplicate entry");
        if (sql.rfind("UPDATE", 0) == 0) return affected(0);
        if (sql.rfind("SELECT RELEASE_LOCK", 0) == 0) return value("1");
        if (sql.rfind(kHungHolderLook, 0) == 0) return Result();
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
    Protocol p(s, QuoteStyle::Default);
    EXPECT_THROW(p.lock("a", nativelock::Deadline::after(0), 10), LockTimeout);
    // INSERT…GET_LOCK (granted, duplicate row), stale-row take-over, the look for a hung holder
    // of another spelling, RELEASE_LOCK; then the row-first path's one attempt: INSERT
    // (duplicate), RELEASE_LOCK, take-over.
    EXPECT_EQ(s.sql.size(), 7u);
}

// The code of the SqlError that lock("a") throws; 0 if it throws none.
unsigned sql_error_of_lock(Protocol &p) {
    try {
        p.lock("a", nativelock::Deadline::after(5), 10);
    } catch (const SqlError &e) {
        return e.code();
    }
    return 0;
}

// Answers that lead a shared session (e.g. a PDO) to the row-first path with a row of its own:
// its first try and its claim meet a row that is not stale, then its own row is registered.
// `take_get_lock` answers the row-first path's UPDATE … GET_LOCK(name, 0), `deregister` its
// DELETE.
std::function<Result(const std::string &, const std::vector<Param> &)> row_first_script(
    std::function<Result()> take_get_lock, std::function<Result()> deregister) {
    return [=](const std::string &sql, const std::vector<Param> &) -> Result {
        if (sql.rfind("INSERT", 0) == 0) {
            if (sql.find(", false)") != std::string::npos) return affected(1);  // our row
            throw SqlError(1062, "23000", "Duplicate entry");
        }
        if (sql.rfind("UPDATE `shared_locks` SET `lock_acquired` = true", 0) == 0)
            return take_get_lock();
        if (sql.rfind("UPDATE", 0) == 0) return affected(0);  // no stale row to take over
        if (sql.rfind("SELECT RELEASE_LOCK", 0) == 0) return value("1");
        if (sql.rfind(kHungHolderLook, 0) == 0) return Result();  // no hung holder either
        if (sql.rfind("DELETE", 0) == 0) return deregister();
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
}

// The row-first path (a shared session, e.g. a PDO): a failure while taking GET_LOCK for a row
// of ours deletes the row, outside the catch handler, and the failure is what the caller sees.
TEST(MysqlProtocol, FailedGetLockOnOwnRowDeletesTheRowThenRethrows) {
    ScriptedSession s;
    s.exclusive_ = false;
    s.answer =
        row_first_script([]() -> Result { throw SqlError(1205, "HY000", "Lock wait timeout"); },
                         []() -> Result { throw SqlError(2006, "HY000", "gone away"); });
    Protocol p(s, QuoteStyle::Default);
    EXPECT_EQ(sql_error_of_lock(p), 1205u);  // the first failure, not the clean-up's
    ASSERT_GE(s.sql.size(), 3u);
    EXPECT_NE(s.sql[s.sql.size() - 3].find(", false)"), std::string::npos) << "our row";
    EXPECT_EQ(s.sql[s.sql.size() - 2].rfind("UPDATE `shared_locks` SET `lock_acquired`", 0), 0u);
    EXPECT_EQ(s.sql.back().rfind("DELETE FROM `shared_locks`", 0), 0u);
}

// Something other than a lock error (on a PDO session: a PHP fatal error inside its call) runs
// no clean-up statement after it, and one in the clean-up goes on in place of the first error.
TEST(MysqlProtocol, NoCleanUpStatementAfterAFailureOtherThanALockError) {
    struct PhpFatal {};
    ScriptedSession s;
    s.exclusive_ = false;
    s.answer = row_first_script([]() -> Result { throw PhpFatal(); },
                                []() -> Result {
                                    ADD_FAILURE() << "clean-up after a PHP fatal error";
                                    return affected(1);
                                });
    Protocol p(s, QuoteStyle::Default);
    EXPECT_THROW(p.lock("a", nativelock::Deadline::after(5), 10), PhpFatal);
    EXPECT_EQ(s.sql.back().rfind("UPDATE `shared_locks` SET `lock_acquired`", 0), 0u);

    ScriptedSession t;
    t.exclusive_ = false;
    t.answer =
        row_first_script([]() -> Result { throw SqlError(1205, "HY000", "Lock wait timeout"); },
                         []() -> Result { throw PhpFatal(); });
    Protocol q(t, QuoteStyle::Default);
    EXPECT_THROW(q.lock("a", nativelock::Deadline::after(5), 10), PhpFatal);
    EXPECT_EQ(t.sql.back().rfind("DELETE FROM `shared_locks`", 0), 0u);
}

// The queued path: GET_LOCK granted, then claiming the row fails: GET_LOCK is given back,
// outside the catch handler, and the claim's failure is what the caller sees.
TEST(MysqlProtocol, FailedClaimAfterGrantGivesGetLockBackThenRethrows) {
    ScriptedSession s;
    s.answer = [](const std::string &sql, const std::vector<Param> &) -> Result {
        if (sql.rfind("INSERT", 0) == 0) throw SqlError(1062, "23000", "Duplicate entry");
        if (sql.rfind("UPDATE", 0) == 0) throw SqlError(1205, "HY000", "Lock wait timeout");
        if (sql.rfind("SELECT RELEASE_LOCK", 0) == 0) return value("1");
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
    Protocol p(s, QuoteStyle::Default);
    EXPECT_EQ(sql_error_of_lock(p), 1205u);
    ASSERT_EQ(s.sql.size(), 3u);
    EXPECT_EQ(s.sql[2].rfind("SELECT RELEASE_LOCK", 0), 0u);
}

// A wait that was ended while the server granted it (a KILL that reports itself after the
// grant, as an error in place of the reply): the session is asked whether it holds the name,
// and a grant is claimed, never left held with nobody knowing, nor taken for an interrupt.
TEST(MysqlProtocol, AWaitEndedAsItWasGrantedAsksTheSessionWhetherItHoldsTheName) {
    struct EndedWaits : ScriptedSession {
        bool cancellable_waits() const override { return true; }
        Result execute_waiting(const std::string &s, const std::vector<Param> &,
                               const std::function<bool()> &stop, bool *cancelled) override {
            sql.push_back(s);
            EXPECT_TRUE(stop && stop());
            *cancelled = true;
            return Result();  // 1317 in place of the reply
        }
    };
    for (const char *holds : {"1", "0"}) {
        EndedWaits s;
        s.answer = [&](const std::string &sql, const std::vector<Param> &) -> Result {
            if (sql.rfind("INSERT", 0) == 0 && sql.find("~0 + 1") != std::string::npos)
                throw busy();
            if (sql.find("IS_USED_LOCK(?) = CONNECTION_ID()") != std::string::npos)
                return value(holds);
            if (sql.rfind("SELECT RELEASE_LOCK", 0) == 0) {
                ADD_FAILURE() << "gave the grant back";
                return value("1");
            }
            return affected(1);  // the claim
        };
        Protocol p(s, QuoteStyle::Default);
        bool threw = false;
        try {
            // The first look at PHP's signals is before the wait: say no to it.
            int asked = 0;
            p.lock("a", nativelock::Deadline::after(10), 10, [&] { return ++asked >= 2; });
        } catch (const WaitInterrupted &) {
            threw = true;
        }
        EXPECT_EQ(threw, std::string(holds) == "0") << "holds " << holds;
        bool asked_session = false;
        for (const std::string &sql : s.sql)
            if (sql.find("IS_USED_LOCK(?) = CONNECTION_ID()") != std::string::npos)
                asked_session = true;
        EXPECT_TRUE(asked_session);
    }
}

// A shared session (PDO) must not change the application's LAST_INSERT_ID(): an UPDATE that
// changed nothing is followed by a look at the row.
TEST(MysqlProtocol, ExtendOnASharedSessionLeavesLastInsertIdAlone) {
    ScriptedSession s;
    s.exclusive_ = false;
    s.answer = [](const std::string &sql, const std::vector<Param> &) -> Result {
        EXPECT_EQ(sql.find("LAST_INSERT_ID"), std::string::npos);
        if (sql.rfind("UPDATE", 0) == 0) return affected(0);
        return value("1");
    };
    Protocol p(s, QuoteStyle::Default);
    EXPECT_TRUE(p.extend("a", 10));
    EXPECT_EQ(s.sql.size(), 2u);
}

TEST(MysqlProtocol, LongNamesAreRejectedNotTruncated) {
    ScriptedSession s;
    s.answer = [](const std::string &, const std::vector<Param> &) { return granted(); };
    Protocol p(s, QuoteStyle::Default);
    EXPECT_THROW(p.lock(std::string(65, 'x'), nativelock::Deadline::after(0), 10), InvalidArgument);
    EXPECT_NO_THROW(p.lock(std::string(64, 'x'), nativelock::Deadline::after(0), 10));
    std::string e_acute = "\xc3\xa9";
    std::string utf8;
    for (int i = 0; i < 64; ++i) utf8 += e_acute;
    EXPECT_EQ(name_length(utf8), 64u);
    EXPECT_NO_THROW(p.lock(utf8, nativelock::Deadline::after(0), 10));
}

TEST(MysqlProtocol, UnlockOfForeignRowReleasesGetLockAndReportsFailure) {
    ScriptedSession s;
    int releases = 0;
    s.answer = [&](const std::string &sql, const std::vector<Param> &) {
        if (sql.rfind("DELETE", 0) == 0) return affected(0);
        return value(releases++ == 0 ? "1" : "0");
    };
    Protocol p(s, QuoteStyle::Default);
    EXPECT_FALSE(p.unlock("a"));
    EXPECT_EQ(releases, 2);
}

TEST(MysqlProtocol, CorruptTableIsRepairedOnceAndRetried) {
    ScriptedSession s;
    int inserts = 0;
    s.answer = [&](const std::string &sql, const std::vector<Param> &) -> Result {
        if (sql.rfind("INSERT", 0) == 0 && inserts++ == 0)
            throw SqlError(1032, "HY000", "Can't find record");
        if (sql.rfind("REPAIR", 0) == 0) {
            Result r;
            r.columns = {"Table", "Op", "Msg_type", "Msg_text"};
            r.rows.push_back({std::string("t"), std::string("repair"), std::string("status"),
                              std::string("OK")});
            return r;
        }
        return granted();
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock("a", nativelock::Deadline::after(0), 10);
    EXPECT_EQ(inserts, 2);
    // The first INSERT's grant, if any, was given back before the repair and the second run.
    ASSERT_GE(s.sql.size(), 4u);
    EXPECT_EQ(s.sql[1].rfind("SELECT IF(@nativelock_grant = ?, RELEASE_LOCK(?), NULL)", 0), 0u);
    EXPECT_EQ(s.sql[2].rfind("REPAIR", 0), 0u);
}

TEST(MysqlProtocol, RepairFailureHasThePackagesMessage) {
    ScriptedSession s;
    s.answer = [](const std::string &, const std::vector<Param> &) {
        Result r;
        r.columns = {"Table", "Op", "Msg_type", "Msg_text"};
        r.rows.push_back({std::string("t"), std::string("repair"), std::string("Error"),
                          std::string("Table 't' doesn't exist")});
        r.rows.push_back({std::string("t"), std::string("repair"), std::string("status"),
                          std::string("Operation failed")});
        return r;
    };
    Protocol p(s, QuoteStyle::Default);
    try {
        p.repair_table();
        FAIL();
    } catch (const TableRepairFailed &e) {
        EXPECT_STREQ(e.what(),
                     "Table shared_locks seams to be corrupted. Repair failed with status "
                     "\"Operation failed\". (Error: Table 't' doesn't exist)");
    }
}

// --- against the real server ------------------------------------------------------------

ConnectParams server() {
    ConnectParams p;
    auto env = [](const char *n, const char *d) {
        const char *v = std::getenv(n);
        return std::string(v ? v : d);
    };
    p.host = env("NATIVELOCK_MYSQL_HOST", "127.0.0.1");
    p.port = static_cast<unsigned>(std::atoi(env("NATIVELOCK_MYSQL_PORT", "13306").c_str()));
    p.user = env("NATIVELOCK_MYSQL_USER", "nativelock");
    p.password = env("NATIVELOCK_MYSQL_PASSWORD", "nativelock");
    p.database = env("NATIVELOCK_MYSQL_DATABASE", "nativelock_test");
    return p;
}

// A session of ours seen as one shared with the application (as a PDO's): the row-first path.
struct SharedView : Session {
    NativeSession &s;
    explicit SharedView(NativeSession &n) : s(n) {}
    Result execute(const std::string &sql, const std::vector<Param> &params, bool prepared,
                   bool want_rows) override {
        return s.execute(sql, params, prepared, want_rows);
    }
};

class MysqlServer : public ::testing::Test {
  protected:
    void SetUp() override {
        try {
            NativeSession probe(server());
            probe.ensure_connected();
        } catch (const std::exception &e) {
            if (std::getenv("CI") && std::string(std::getenv("CI")) == "true") FAIL() << e.what();
            GTEST_SKIP() << "mariadbd not reachable: " << e.what();
        }
    }
    static std::string name(const char *prefix) {
        return std::string(prefix) + "-" + std::to_string(::getpid()) + "-" +
               std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() %
                              1000000000);
    }
};

TEST_F(MysqlServer, UncontendedCycleIsTwoRoundTripsAfterPrepare) {
    NativeSession a(server());
    Protocol p(a, QuoteStyle::Default);
    std::string n = name("rt");
    p.lock(n, nativelock::Deadline::after(0), 10);
    ASSERT_TRUE(p.unlock(n));
    auto before = a.round_trips();
    p.lock(n, nativelock::Deadline::after(0), 10);
    ASSERT_TRUE(p.unlock(n));
    EXPECT_EQ(a.round_trips() - before, 2u);
}

// The shim asks for the session before each call and the statement asks again; a grant's row
// follows its reply: a socket whose reply was read a moment ago is not polled a second time. One
// that was idle for longer is (a server that closed it while idle is noticed without a round
// trip), and so is one whose last statement failed.
TEST_F(MysqlServer, ASocketHeardFromAMomentAgoIsNotPolledAgainAnIdleOneIs) {
    using std::chrono::microseconds;
    NativeSession a(server());
    const auto generation = a.ensure_connected();
    // Each statement outlasts the window: only the end of its reply can open it again, on each
    // path that reads one. On a loaded machine one check can come too late; twenty cannot all.
    const std::vector<std::pair<const char *, std::function<void()>>> paths = {
        {"prepared, rows", [&] { a.execute("SELECT SLEEP(0.005)", {}, true, false); }},
        {"prepared, no columns", [&] { a.execute("DO SLEEP(0.005)", {}, true, false); }},
        {"text, rows", [&] { a.execute("SELECT SLEEP(0.005)", {}, false, false); }},
        {"text, no columns", [&] { a.execute("DO SLEEP(0.005)", {}, false, false); }},
        {"waiting",
         [&] {
             bool cancelled = false;
             a.execute_waiting("SELECT SLEEP(0.005)", {}, nullptr, &cancelled);
         }},
    };
    for (const auto &[path, run] : paths) {
        int skipped = 0;
        for (int i = 0; i < 20; ++i) {
            run();
            const auto polls = a.liveness_polls();
            a.ensure_connected();
            if (a.liveness_polls() == polls) ++skipped;
        }
        EXPECT_GT(skipped, 0) << path << ": every check right after a reply polled the socket";
    }
    // An error reply leaves nothing to vouch for the socket, however soon the next check.
    for (int i = 0; i < 20; ++i) {
        std::this_thread::sleep_for(NativeSession::kRecheckAfter + microseconds(100));
        EXPECT_THROW(a.execute("SELECT no_such_column", {}, false, false), SqlError);
        const auto polls = a.liveness_polls();
        a.ensure_connected();
        EXPECT_EQ(a.liveness_polls(), polls + 1) << "no poll after an error reply";
    }
    for (int i = 0; i < 3; ++i) {
        std::this_thread::sleep_for(NativeSession::kRecheckAfter * 20);
        const auto polls = a.liveness_polls();
        a.ensure_connected();
        EXPECT_EQ(a.liveness_polls(), polls + 1) << "an idle socket was not polled";
    }
    EXPECT_EQ(a.generation(), generation) << "a live session was replaced";
}

// A session the server closed after the grant is noticed by the fencing statement's own check,
// which reconnects: the token must not be drawn on the new session for a lock gone with the old.
TEST_F(MysqlServer, NoFencingTokenIsDrawnOnASessionThatReplacedTheHolders) {
    NativeSession a(server()), b(server());
    Protocol pa(a, QuoteStyle::Default);
    b.execute(pa.create_fences_table_sql(), {}, false, false);
    std::string n = name("fence-lost");
    pa.lock(n, Deadline::after(0), 30);
    EXPECT_GT(pa.draw_fence(n), 0);  // the holder's own session draws it
    b.execute("KILL CONNECTION " + std::to_string(a.connection_id()), {}, false, false);
    // KILL is asynchronous: wait until the killed session has let GET_LOCK go.
    bool freed = false;
    for (int i = 0; i < 500 && !freed; ++i) {
        freed = !b.execute("SELECT IS_USED_LOCK(?)", {Param::str(n)}, true, false).value;
        if (!freed) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(freed) << "the killed session still holds the lock";
    std::this_thread::sleep_for(NativeSession::kRecheckAfter * 2);  // checked, not trusted
    const auto before = a.generation();
    EXPECT_THROW(pa.draw_fence(n), SessionLost);
    EXPECT_NE(a.generation(), before) << "the statement did not reconnect";
}

// A refresh to the TTL the lock already has, in the second it was taken, changes no row: the
// session of our own still learns from the same reply that it holds the lock.
TEST_F(MysqlServer, ExtendThatChangesNothingIsOneRoundTrip) {
    NativeSession a(server()), b(server());
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    std::string n = name("ext");
    pa.lock(n, Deadline::after(0), 10);
    EXPECT_TRUE(pa.extend(n, 10));  // prepares the statement
    for (int i = 0; i < 3; ++i) {
        auto before = a.round_trips();
        EXPECT_TRUE(pa.extend(n, 10));
        EXPECT_EQ(a.round_trips() - before, 1u);
    }
    // Not held by the session that asks: false, still in one round trip.
    EXPECT_FALSE(pb.extend(n, 10));  // connects, prepares
    auto before = b.round_trips();
    EXPECT_FALSE(pb.extend(n, 10));
    EXPECT_EQ(b.round_trips() - before, 1u);
    ASSERT_TRUE(pa.unlock(n));
    before = a.round_trips();
    EXPECT_FALSE(pa.extend(n, 10));
    EXPECT_EQ(a.round_trips() - before, 1u);
}

TEST_F(MysqlServer, SecondSessionTimesOutThenGetsTheLockAfterRelease) {
    NativeSession a(server()), b(server());
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    std::string n = name("two");
    pa.lock(n, Deadline::after(0), 10);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(pb.lock(n, Deadline::after(0.5), 10), LockTimeout);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_GE(took, 0.45);
    EXPECT_LT(took, 5);
    std::thread releaser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        pa.unlock(n);
    });
    t0 = std::chrono::steady_clock::now();
    pb.lock(n, Deadline::after(10), 10);
    took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    releaser.join();
    EXPECT_LT(took, 3);
    EXPECT_TRUE(pb.has_remaining_ttl(n, 5));
    EXPECT_FALSE(pb.has_remaining_ttl(n, 50));
    EXPECT_TRUE(pb.unlock(n));
}

TEST_F(MysqlServer, DisconnectedHolderIsCleanedAtOnce) {
    auto a = std::make_unique<NativeSession>(server());
    NativeSession b(server());
    std::string n = name("dead");
    Protocol(*a, QuoteStyle::Default).lock(n, Deadline::after(0), 600);
    a.reset();  // QUIT: GET_LOCK released, row stays with lock_acquired = 1
    Protocol pb(b, QuoteStyle::Default);
    // The server ends the session after QUIT returned on the client (asynchronously): a single
    // attempt right away could still find its GET_LOCK (CI saw it once, under ASan). "At once" is
    // "long before the row's 600 s TTL".
    auto t0 = std::chrono::steady_clock::now();
    pb.lock(n, Deadline::after(10), 10);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5);
    EXPECT_TRUE(pb.unlock(n));
}

TEST_F(MysqlServer, HolderPastTtlIsKilled) {
    NativeSession a(server()), b(server());
    std::string n = name("ttl");
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    pa.lock(n, Deadline::after(0), 1);
    const auto holder = static_cast<long long>(a.connection_id());
    auto t0 = std::chrono::steady_clock::now();
    pb.lock(n, Deadline::after(10), 10);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(took, 5);
    // Asked of the server, not of `pa` (whose TTL check would fail on b's row alone). KILL is
    // asynchronous: a killed session frees its GET_LOCK before it leaves the process list.
    std::string alive;
    for (int i = 0; i < 100; ++i) {
        Result r = b.execute(
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? AND "
            "COMMAND <> 'Killed'",
            {Param::integer(holder)}, true, false);
        ASSERT_TRUE(r.value);
        alive = *r.value;
        if (alive == "0") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(alive, "0") << "the hung holder's session was killed";
    EXPECT_FALSE(pa.has_remaining_ttl(n, 0));
    EXPECT_TRUE(pb.unlock(n));
}

TEST_F(MysqlServer, ForceReleaseEndsTheHoldingSessionAndFreesTheNameAtOnce) {
    NativeSession a(server()), b(server());
    std::string n = name("force"), other = name("force-other");
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    pa.lock(n, Deadline::after(0), 600);
    pa.lock(other, Deadline::after(0), 600);
    EXPECT_TRUE(pb.force_release(n));
    // Free on return (the killed session's GET_LOCK is gone), with no TTL to wait for.
    pb.lock(n, Deadline::after(0), 10);
    EXPECT_FALSE(pa.has_remaining_ttl(n, 0)) << "the holder's session was ended";
    EXPECT_FALSE(pa.has_remaining_ttl(other, 0)) << "and every lock it held went with it";
    // Our own hold: released, not killed (the session still works afterwards).
    EXPECT_TRUE(pb.force_release(n));
    EXPECT_FALSE(pb.force_release(n)) << "nothing held any more";
    pb.lock(n, Deadline::after(0), 10);
    EXPECT_TRUE(pb.unlock(n));
    EXPECT_TRUE(pb.force_release(other)) << "the killed holder's row is left over";
    EXPECT_FALSE(pb.force_release(other));
}

// "No limit" is its own case: an unlimited wait on a contended lock waits (it once became
// GET_LOCK(name, -1) and failed at once).
TEST_F(MysqlServer, UnlimitedDeadlineWaitsForTheRelease) {
    NativeSession a(server()), b(server());
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    std::string n = name("never");
    pa.lock(n, Deadline::after(0), 10);
    std::thread releaser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        pa.unlock(n);
    });
    EXPECT_NO_THROW(pb.lock(n, Deadline::never(), 10));
    releaser.join();
    EXPECT_TRUE(pb.unlock(n));
}

TEST_F(MysqlServer, InterruptedWaitStopsWithinASliceAndHoldsNothing) {
    NativeSession a(server()), b(server());
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    std::string n = name("interrupt");
    pa.lock(n, Deadline::after(0), 10);
    int asked = 0;
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(pb.lock(n, Deadline::never(), 10, [&] { return ++asked >= 3; }), WaitInterrupted);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(took, 3);
    EXPECT_FALSE(pb.has_remaining_ttl(n, 0));
    EXPECT_TRUE(pa.has_remaining_ttl(n, 0));
    EXPECT_TRUE(pa.unlock(n));
}

TEST_F(MysqlServer, HugeTtlIsClampedNeverExpired) {
    EXPECT_EQ(ttl_seconds(1e19), kMaxTtlSeconds);
    EXPECT_EQ(ttl_seconds(9223372036854775807.0), kMaxTtlSeconds);
    EXPECT_EQ(ttl_seconds(std::numeric_limits<double>::infinity()), kMaxTtlSeconds);
    EXPECT_EQ(ttl_seconds(1.4), 1);
    NativeSession a(server()), b(server());
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    std::string n = name("hugettl");
    pa.lock(n, Deadline::after(0), ttl_seconds(1e19));
    EXPECT_THROW(pb.lock(n, Deadline::after(0.3), 10), LockTimeout);
    EXPECT_TRUE(pa.has_remaining_ttl(n, ttl_seconds(1e6)));
    EXPECT_FALSE(pa.has_remaining_ttl(n, ttl_seconds(1e19)));
    EXPECT_TRUE(pa.unlock(n));
}

// Taking over a row whose holder is gone must not KILL a session that merely holds GET_LOCK for a
// moment (a waiter probing it): only the expired row's own session, while it still holds.
TEST_F(MysqlServer, TakeOverDoesNotKillASessionHoldingGetLockBriefly) {
    auto a = std::make_unique<NativeSession>(server());
    NativeSession waiter(server()), b(server());
    std::string n = name("brief");
    Protocol(*a, QuoteStyle::Default).lock(n, Deadline::after(0), 1);
    a.reset();  // the holder is gone; its row expires after 1 s
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    waiter.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    std::thread let_go([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        waiter.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    });
    Protocol pb(b, QuoteStyle::Default);
    EXPECT_NO_THROW(pb.lock(n, Deadline::after(10), 10));
    let_go.join();
    EXPECT_NO_THROW(waiter.execute("SELECT 1", {}, false, true)) << "the waiter was killed";
    EXPECT_TRUE(pb.unlock(n));
}

// Waits (up to 10 s) until session `id` waits in GET_LOCK: under load, a thread started some
// milliseconds ago may not have got there yet (a test ordering waiters by sleeps alone failed
// so, 2026-11-27).
static void wait_until_in_get_lock(NativeSession &probe, unsigned long id) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (id != 0 &&
           probe.execute("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? AND "
                         "STATE = 'User lock'",
                         {Param::integer(static_cast<long long>(id))}, true, false)
                   .value != std::optional<std::string>("1") &&
           std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (id == 0 || std::chrono::steady_clock::now() >= until)
        ADD_FAILURE() << "session " << id << " did not wait in GET_LOCK within 10 s";
}

// Waiters queue in the server: a release hands the lock to the oldest waiter, and a newcomer
// that arrives just as the holder releases does not barge past it (repeated: the row-first
// protocol lost this race now and then, between the woken waiter's probe and its INSERT).
// The queue of a hot lock: waiters get it in the order they came, and a newcomer right after a
// release gets nothing. `shared`: the first waiter and the newcomer run on sessions shared with
// the application (as a PDO's), which wait in the same line.
void expect_fifo_without_barging(bool shared) {
    NativeSession a(server()), b(server()), c(server()), d(server()), probe(server());
    SharedView shared_b(b), shared_d(d);
    Protocol pa(a, QuoteStyle::Default), pc(c, QuoteStyle::Default);
    Protocol pb(shared ? static_cast<Session &>(shared_b) : b, QuoteStyle::Default);
    Protocol pd(shared ? static_cast<Session &>(shared_d) : d, QuoteStyle::Default);
    std::string n = std::string(shared ? "fifo-shared-" : "fifo-") + std::to_string(::getpid());
    int barged = 0;
    b.ensure_connected();
    c.ensure_connected();
    const unsigned long b_id = b.connection_id(), c_id = c.connection_id();
    for (int round = 0; round < 20; ++round) {
        pa.lock(n, Deadline::after(0), 30);
        std::vector<char> order;
        std::mutex order_mutex;
        auto waiter = [&](Protocol &p, char who) {
            p.lock(n, Deadline::after(20), 30);
            {
                std::lock_guard<std::mutex> g(order_mutex);
                order.push_back(who);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            p.unlock(n);
        };
        std::thread tb(waiter, std::ref(pb), 'b');
        wait_until_in_get_lock(probe, b_id);  // b waits first
        std::thread tc(waiter, std::ref(pc), 'c');
        wait_until_in_get_lock(probe, c_id);
        ASSERT_TRUE(pa.unlock(n));
        // Right after the release the lock is b's, not free: the newcomer gets nothing.
        try {
            pd.lock(n, Deadline::after(0), 30);
            ++barged;
            pd.unlock(n);
        } catch (const LockTimeout &) {
        }
        tb.join();
        tc.join();
        EXPECT_EQ(std::string(order.begin(), order.end()), "bc") << "round " << round;
    }
    EXPECT_EQ(barged, 0) << "a newcomer took the lock past a waiting queue";
}

TEST_F(MysqlServer, ReleaseHandsOffToTheOldestWaiterAndNewcomersDoNotBarge) {
    expect_fifo_without_barging(false);
}

TEST_F(MysqlServer, SharedSessionsWaitInTheSameLineAndDoNotBarge) {
    expect_fifo_without_barging(true);
}

// A wait longer than the 0.2 s between two looks at PHP's signals keeps its place in the
// server's line: waiters arriving 100 ms apart, each holding the lock 0.4 s, get it in the
// order they came. (Until 2026-11-27 a wait was re-sent every 0.2 s and rejoined the line at
// its end: such holds put waiters out of order.) An interrupt test that says "no" all along
// makes lock() wait as it does under PHP.
TEST_F(MysqlServer, WaitersLongerThanASliceKeepTheirPlaceInLine) {
    constexpr int kWaiters = 3;
    NativeSession h(server()), probe(server());
    std::vector<std::unique_ptr<NativeSession>> sessions;
    std::vector<std::unique_ptr<Protocol>> protocols;
    for (int i = 0; i < kWaiters; ++i) {
        sessions.push_back(std::make_unique<NativeSession>(server()));
        sessions.back()->ensure_connected();
        protocols.push_back(std::make_unique<Protocol>(*sessions.back(), QuoteStyle::Default));
    }
    std::string n = name("keep-place");
    Protocol ph(h, QuoteStyle::Default);
    ph.lock(n, Deadline::after(0), 30);
    const std::function<bool()> never = [] { return false; };
    std::mutex order_mutex;
    std::string order, failures;
    std::vector<std::thread> waiters;
    for (int i = 0; i < kWaiters; ++i) {
        waiters.emplace_back([&, i] {
            try {
                protocols[i]->lock(n, Deadline::after(20), 30, never);
                {
                    std::lock_guard<std::mutex> guard(order_mutex);
                    order += static_cast<char>('0' + i);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(400));
                protocols[i]->unlock(n);
            } catch (const std::exception &e) {
                std::lock_guard<std::mutex> guard(order_mutex);
                failures += e.what();
            }
        });
        wait_until_in_get_lock(probe, sessions[i]->connection_id());
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_TRUE(ph.unlock(n));
    for (auto &t : waiters) t.join();
    EXPECT_EQ(failures, "");
    EXPECT_EQ(order, "012");
}

// An interrupt ends a long wait at once (the wait is ended on the server with KILL QUERY from
// a second session): lock() throws WaitInterrupted, the session is the same one and keeps the
// locks it holds, and it holds nothing of the name it waited for.
TEST_F(MysqlServer, AnInterruptEndsAWaitAtOnceAndTheSessionKeepsItsLocks) {
    NativeSession h(server()), s(server()), probe(server());
    std::string n = name("interrupt-wait"), other = name("interrupt-other");
    Protocol ph(h, QuoteStyle::Default), ps(s, QuoteStyle::Default);
    ph.lock(n, Deadline::after(0), 30);
    ps.lock(other, Deadline::after(0), 30);
    const std::uint64_t generation = s.generation();
    const unsigned long id = s.connection_id();
    std::atomic<bool> pending{false};
    std::thread signal([&] {
        wait_until_in_get_lock(probe, id);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));  // longer than a slice
        pending = true;
    });
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(ps.lock(n, Deadline::after(20), 30, [&] { return pending.load(); }),
                 WaitInterrupted);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    signal.join();
    EXPECT_LT(took, 3.0);
    EXPECT_EQ(s.generation(), generation) << "the session was replaced";
    EXPECT_EQ(s.connection_id(), id);
    EXPECT_TRUE(ps.has_remaining_ttl(other, 5)) << "the session lost a lock it held";
    EXPECT_EQ(probe.execute("SELECT IS_USED_LOCK(?)", {Param::str(n)}, true, false).value,
              std::optional<std::string>(std::to_string(h.connection_id())));
    EXPECT_EQ(probe
                  .execute("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? "
                           "AND STATE = 'User lock'",
                           {Param::integer(static_cast<long long>(id))}, true, false)
                  .value,
              std::optional<std::string>("0"))
        << "the wait goes on on the server";
    // The session waits and locks as before.
    std::thread releaser([&] {
        wait_until_in_get_lock(probe, id);
        ph.unlock(n);
    });
    EXPECT_NO_THROW(ps.lock(n, Deadline::after(10), 30, [] { return false; }));
    releaser.join();
    EXPECT_TRUE(ps.has_remaining_ttl(n, 5));
    EXPECT_TRUE(ps.unlock(n));
    EXPECT_TRUE(ps.unlock(other));
}

// An interrupt that is pending as the wait is sent: the KILL QUERY may reach the server before
// the statement has begun, which drops it; it is sent again until the wait ends.
TEST_F(MysqlServer, AnInterruptPendingAsTheWaitIsSentStillEndsIt) {
    NativeSession h(server()), s(server());
    std::string n = name("interrupt-at-once");
    Protocol ph(h, QuoteStyle::Default), ps(s, QuoteStyle::Default);
    ph.lock(n, Deadline::after(0), 30);
    for (int round = 0; round < 5; ++round) {
        int asked = 0;
        // No to the look before the wait, yes from then on.
        auto interrupted = [&] { return ++asked >= 2; };
        auto t0 = std::chrono::steady_clock::now();
        EXPECT_THROW(ps.lock(n, Deadline::after(20), 30, interrupted), WaitInterrupted);
        double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_LT(took, 5.0) << "round " << round;
        EXPECT_GE(asked, 3) << "the wait did not ask";
    }
    EXPECT_NO_THROW(ps.lock(n + "-other", Deadline::after(0), 30));  // the session works
    EXPECT_TRUE(ps.unlock(n + "-other"));
    EXPECT_TRUE(ph.unlock(n));
}

// A server's max_statement_time shorter than a wait does not end the wait (it would read as
// GET_LOCK NULL, a failed acquisition): the waiting statement lifts it for itself.
TEST_F(MysqlServer, AStatementTimeLimitDoesNotEndAWait) {
    NativeSession h(server()), s(server()), probe(server());
    s.execute("SET SESSION max_statement_time = 0.3", {}, false, false);
    std::string n = name("statement-time");
    Protocol ph(h, QuoteStyle::Default), ps(s, QuoteStyle::Default);
    ph.lock(n, Deadline::after(0), 30);
    s.ensure_connected();
    const unsigned long id = s.connection_id();
    std::thread releaser([&] {
        wait_until_in_get_lock(probe, id);
        std::this_thread::sleep_for(std::chrono::milliseconds(1000));
        ph.unlock(n);
    });
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_NO_THROW(ps.lock(n, Deadline::after(10), 30, [] { return false; }));
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    releaser.join();
    EXPECT_GE(took, 0.9);
    EXPECT_TRUE(ps.has_remaining_ttl(n, 5));
    EXPECT_TRUE(ps.unlock(n));
}

// A waiter granted GET_LOCK writes its row before lock() returns; if a row stands (the holder's
// session died and left it), it is taken over.
TEST_F(MysqlServer, HandOffTakesOverARowLeftByADeadHolder) {
    auto a = std::make_unique<NativeSession>(server());
    NativeSession b(server()), probe(server());
    std::string n = name("handoff-dead");
    Protocol(*a, QuoteStyle::Default).lock(n, Deadline::after(0), 600);
    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        a.reset();  // QUIT: GET_LOCK goes to the waiter, the row stays (lock_acquired = 1)
    });
    Protocol pb(b, QuoteStyle::Default);
    pb.lock(n, Deadline::after(10), 30);
    killer.join();
    EXPECT_TRUE(pb.has_remaining_ttl(n, 20)) << "the row was taken over with our TTL";
    Result row = probe.execute("SELECT connection_id FROM shared_locks WHERE name = ?",
                               {Param::str(n)}, true, false);
    ASSERT_TRUE(row.value.has_value());
    EXPECT_EQ(*row.value, std::to_string(b.connection_id()));
    EXPECT_TRUE(pb.unlock(n));
}

// Writes the row a session of `holder`'s connection id left before a restart.
void leave_row_of(NativeSession &writer, const std::string &name, const NativeSession &holder,
                  long long ttl, bool marked) {
    writer.execute(
        "INSERT INTO shared_locks (name, created, ttl, connection_id, lock_acquired) "
        "VALUES (?, unix_timestamp(), ?, ?, ?)",
        {Param::str(name), Param::integer(ttl),
         Param::integer(static_cast<long long>(holder.connection_id())),
         Param::integer(marked ? 1 : 0)},
        true, false);
}

// Connection ids restart with the server: a row left before a restart (marked acquired, its
// GET_LOCK long gone) may carry the id our new session got. It is not ours, and it is taken over
// at once, not waited out until its TTL.
TEST_F(MysqlServer, RowWithOurConnectionIdButNotOurLockIsTakenOver) {
    NativeSession a(server()), probe(server());
    a.ensure_connected();
    std::string n = name("reused");
    leave_row_of(probe, n, a, 600, true);
    Protocol pa(a, QuoteStyle::Default);
    EXPECT_NO_THROW(pa.lock(n, Deadline::after(0), 30));
    EXPECT_TRUE(pa.has_remaining_ttl(n, 20));
    EXPECT_TRUE(pa.unlock(n));
}

// The same row not marked acquired (a client of the package's order, before a restart, between
// its INSERT and its GET_LOCK): not ours either, so it is taken over at its TTL, not waited for
// until the deadline as a lock of our own session would be.
TEST_F(MysqlServer, UnmarkedRowWithOurConnectionIdIsTakenOverAtItsTtl) {
    NativeSession a(server()), probe(server());
    a.ensure_connected();
    std::string n = name("reused-unmarked");
    leave_row_of(probe, n, a, 1, false);
    Protocol pa(a, QuoteStyle::Default);
    const auto started = std::chrono::steady_clock::now();
    EXPECT_NO_THROW(pa.lock(n, Deadline::after(8), 30));
    // Past its TTL of 1 s after at most 3 s (whole seconds), well before the deadline.
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(6));
    EXPECT_TRUE(pa.has_remaining_ttl(n, 20));
    EXPECT_TRUE(pa.unlock(n));
}

// A lock our own session holds (GET_LOCK and the row) is its own: asked for again, it is waited
// for until the deadline, and the row stays as it was.
TEST_F(MysqlServer, OurOwnSessionsLockIsWaitedForUntilTheDeadline) {
    ConnectParams utf8 = server();
    utf8.charset = "utf8mb4";  // as SharedLock's and the native API's sessions
    // Also a name whose bytes differ between our character set and the table's (latin1): our
    // GET_LOCK is asked about in each, as a row's holder always is.
    for (const std::string spelled : {"self", "self-\xc3\xa9"}) {
        NativeSession a(utf8), probe(utf8);
        Protocol pa(a, QuoteStyle::Default);
        std::string n = name(spelled.c_str());
        pa.lock(n, Deadline::after(0), 2);
        const auto row = [&] {
            return probe
                .execute(
                    "SELECT CONCAT(created, '/', ttl, '/', connection_id, '/', "
                    "lock_acquired) FROM shared_locks WHERE name = ?",
                    {Param::str(n)}, true, false)
                .value;
        };
        const auto before = row();
        // Past the first lock's TTL of 2 s: still ours, never taken over by ourselves.
        EXPECT_THROW(pa.lock(n, Deadline::after(3.5), 30), LockTimeout) << spelled;
        EXPECT_EQ(row(), before) << spelled;
        EXPECT_TRUE(pa.unlock(n)) << spelled;
    }
}

// The package's SharedLock::lock(), statement by statement: its row first (the row is the
// lock, in its model), then GET_LOCK(name, 0) polled every 50 ms (the package: 200 ms, 20
// times), then the mark. Returns "ok", "not registered" (a row stood) or the package's error;
// on an error it deletes its row and, as the package does, keeps GET_LOCK if it got it.
std::string lock_as_the_package_does(NativeSession &s, const std::string &name) {
    auto q = [&](const std::string &sql, std::vector<Param> p) {
        return s.execute(sql, p, true, false);
    };
    try {
        q("INSERT INTO shared_locks (name, created, ttl, connection_id, lock_acquired) VALUES "
          "(?, unix_timestamp(), 30, connection_id(), false)",
          {Param::str(name)});
    } catch (const SqlError &e) {
        if (e.sqlstate() == "23000") return "not registered";
        throw;
    }
    std::string failure;
    for (int tries = 0;; ++tries) {
        if (q("SELECT GET_LOCK(?, 0)", {Param::str(name)}).value == std::optional<std::string>("1"))
            break;
        if (tries == 80) {
            failure = "Other session holds it and does not terminate.";
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (failure.empty()) {
        Result marked =
            q("UPDATE shared_locks SET lock_acquired = true WHERE name = ? AND "
              "connection_id = connection_id()",
              {Param::str(name)});
        if (marked.affected == 1) return "ok";
        failure = "Could not mark database lock as acquired.";
    }
    q("DELETE FROM shared_locks WHERE name = ? AND connection_id = connection_id()",
      {Param::str(name)});
    return failure;
}

// A waiter granted GET_LOCK owns the lock whatever row stands: here one a client of the
// package's order inserted (lock_acquired = 0) before its own GET_LOCK. The waiter's row replaces
// it; left without a row, the waiter would look like a rowless holder and be KILLed.
TEST_F(MysqlServer, HandOffTakesTheRowEvenFromAClientOfThePackagesOrder) {
    NativeSession a(server()), b(server()), probe(server());
    std::string n = name("upsert");
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    pa.lock(n, Deadline::after(0), 30);
    b.ensure_connected();
    const unsigned long b_id = b.connection_id();
    std::thread waiter([&] { pb.lock(n, Deadline::after(10), 30); });
    wait_until_in_get_lock(probe, b_id);
    // a's row becomes a fresh, unmarked row of another session; then a lets GET_LOCK go.
    probe.execute(
        "UPDATE shared_locks SET connection_id = ?, lock_acquired = 0, created = "
        "unix_timestamp(), ttl = 600 WHERE name = ?",
        {Param::integer(static_cast<long long>(probe.connection_id())), Param::str(n)}, true,
        false);
    a.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    waiter.join();
    EXPECT_TRUE(pb.has_remaining_ttl(n, 20)) << "the waiter holds GET_LOCK and the row";
    EXPECT_TRUE(pb.unlock(n));
}

// A newcomer that finds the lock taken writes no row on its way into the line, on a session of
// our own and on a shared one (a PDO) alike: a row not marked acquired is always some client's
// lock in the making, which a waiter granted GET_LOCK leaves alone. The lock is taken the way a
// hand-off leaves it for a moment (GET_LOCK held, no row yet); after every statement of the
// newcomer's, another session looks for a row of the newcomer's: the first is its claim.
TEST_F(MysqlServer, NewcomerFindingTheLockTakenWritesNoRow) {
    struct Watched : Session {
        NativeSession &s, &observer;
        std::string name;
        bool exclusive_flag;
        std::vector<std::string> rows_seen_after;
        Watched(NativeSession &n, NativeSession &o, std::string lock, bool exclusive)
            : s(n), observer(o), name(std::move(lock)), exclusive_flag(exclusive) {}
        bool exclusive() const override { return exclusive_flag; }
        Result execute(const std::string &sql, const std::vector<Param> &params, bool prepared,
                       bool want_rows) override {
            Result r = s.execute(sql, params, prepared, want_rows);
            Result mine = observer.execute(
                "SELECT COUNT(*) FROM shared_locks WHERE name = ? AND connection_id = ?",
                {Param::str(name), Param::integer(static_cast<long long>(s.connection_id()))}, true,
                false);
            if (mine.value != std::optional<std::string>("0")) rows_seen_after.push_back(sql);
            return r;
        }
    };
    for (bool exclusive : {true, false}) {
        NativeSession m(server()), b(server()), observer(server());
        b.ensure_connected();
        const std::string n = name(exclusive ? "no-row" : "no-row-shared");
        Watched watched(b, observer, n, exclusive);
        Protocol pb(watched, QuoteStyle::Default);
        pb.set_kill_rowless_holders(false);
        m.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
        std::thread release([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            m.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
        });
        pb.lock(n, Deadline::after(10), 30);
        release.join();
        ASSERT_FALSE(watched.rows_seen_after.empty()) << exclusive;
        EXPECT_NE(watched.rows_seen_after[0].find("connection_id(), true)"), std::string::npos)
            << exclusive << ": a row before the claim, after " << watched.rows_seen_after[0];
        EXPECT_TRUE(pb.unlock(n));
    }
}

// A name the table cannot store (the package's latin1 table, strict mode) fails the first
// INSERT after GET_LOCK was granted: the level is given back, on either kind of session, and
// the lock is not left held by a session that reported a failure.
TEST_F(MysqlServer, FirstTryFailingAfterTheGrantGivesGetLockBack) {
    for (bool exclusive : {true, false}) {
        NativeSession b(server()), probe(server());
        SharedView shared_b(b);
        Protocol pb(exclusive ? static_cast<Session &>(b) : shared_b, QuoteStyle::Default);
        const std::string n = name(exclusive ? "enc-\xe4\xb8\xad" : "enc-shared-\xe4\xb8\xad");
        EXPECT_THROW(pb.lock(n, Deadline::after(0), 30), SqlError) << exclusive;
        Result holder = probe.execute("SELECT IS_USED_LOCK(?)", {Param::str(n)}, true, false);
        EXPECT_FALSE(holder.value.has_value())
            << exclusive << ": GET_LOCK left with session " << holder.value.value_or("");
    }
}

// A session that joins the line at once for a hot name and finds the lock free takes no row of
// a client of the package's order (registered, GET_LOCK not yet taken): that is for a waiter
// handed the lock after waiting. Here the lock stays the package client's, and ours times out.
TEST_F(MysqlServer, HotNameMeetingAFreeLockLeavesAPackageClientsRow) {
    for (bool exclusive : {true, false}) {
        NativeSession m(server()), b(server()), pkg(server()), probe(server());
        SharedView shared_b(b);
        Protocol pb(exclusive ? static_cast<Session &>(b) : shared_b, QuoteStyle::Default);
        pb.set_kill_rowless_holders(false);
        const std::string n = name(exclusive ? "hot-free" : "hot-free-shared");
        // The name becomes hot: a first try finds it taken.
        m.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
        EXPECT_THROW(pb.lock(n, Deadline::after(0.05), 30), LockTimeout);
        m.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
        // A client of the package's order registers its row; GET_LOCK is free.
        pkg.execute(
            "INSERT INTO shared_locks (name, created, ttl, connection_id, lock_acquired) "
            "VALUES (?, unix_timestamp(), 30, connection_id(), false)",
            {Param::str(n)}, true, false);
        EXPECT_THROW(pb.lock(n, Deadline::after(0.3), 30), LockTimeout) << exclusive;
        EXPECT_EQ(probe
                      .execute("SELECT connection_id = ? AND NOT lock_acquired FROM shared_locks "
                               "WHERE name = ?",
                               {Param::integer(static_cast<long long>(pkg.connection_id())),
                                Param::str(n)},
                               true, false)
                      .value,
                  std::optional<std::string>("1"))
            << exclusive << ": the package client's row was taken";
        pkg.execute("DELETE FROM shared_locks WHERE name = ?", {Param::str(n)}, true, false);
    }
}

// Whatever error the first INSERT meets after GET_LOCK was granted, the grant is given back, and
// only it: here a CHECK constraint of the table (MariaDB 10.2+) refuses the row's TTL, on a
// session that holds the name already (GET_LOCK is re-entrant: its own level must stay).
TEST_F(MysqlServer, FirstTryFailingOnAConstraintGivesOnlyItsGrantBack) {
    NativeSession setup(server());
    setup.execute(
        "CREATE TABLE IF NOT EXISTS nl_check_locks (name varchar(64) NOT NULL, "
        "connection_id bigint NOT NULL, created bigint NOT NULL, ttl bigint NOT NULL, "
        "lock_acquired tinyint(1) NOT NULL, UNIQUE KEY (name), CHECK (ttl < 1000)) "
        "ENGINE=MyISAM",
        {}, false, false);
    for (bool exclusive : {true, false}) {
        for (bool held_before : {false, true}) {
            NativeSession b(server()), probe(server());
            SharedView shared_b(b);
            Protocol pb(exclusive ? static_cast<Session &>(b) : shared_b, QuoteStyle::Default,
                        "nl_check_locks");
            const std::string n = name("check");
            if (held_before) b.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
            EXPECT_THROW(pb.lock(n, Deadline::after(0), 5000), SqlError);
            Result holder = probe.execute(
                "SELECT IS_USED_LOCK(?) = ?",
                {Param::str(n), Param::integer(static_cast<long long>(b.connection_id()))}, true,
                false);
            EXPECT_EQ(holder.value, held_before ? std::optional<std::string>("1") : std::nullopt)
                << exclusive << held_before;
        }
    }
}

// A single attempt (timeout 0) still takes over a holder past its TTL.
TEST_F(MysqlServer, TimeoutZeroTakesOverAHolderPastItsTtl) {
    NativeSession a(server()), b(server());
    std::string n = name("ttl0");
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    pa.lock(n, Deadline::after(0), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(2200));
    EXPECT_NO_THROW(pb.lock(n, Deadline::after(0), 10));
    EXPECT_TRUE(pb.unlock(n));
}

// The table's unique key conflates spellings that GET_LOCK keeps apart (latin1_swedish_ci: case,
// trailing spaces): a row is judged by the GET_LOCK of its own spelling, so another spelling never
// takes over a live holder's row. Both spellings are one lock, as for the package.
TEST_F(MysqlServer, AnotherSpellingDoesNotTakeOverALiveHoldersRow) {
    ConnectParams utf8 = server();
    utf8.charset = "utf8mb4";  // as SharedLock's and the native API's sessions
    for (const char *variant : {"upper", "trailing space", "non-ascii upper"}) {
        NativeSession a(utf8), b(utf8);
        Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
        std::string held = name("spell-\xc3\xa9"), other = held;  // é (U+00E9), in latin1 too
        if (std::string(variant) == "upper") {
            for (char &c : other)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        } else if (std::string(variant) == "trailing space") {
            other += " ";
        } else {
            other.replace(other.find("\xc3\xa9"), 2, "\xc3\x89");  // É (U+00C9)
        }
        pa.lock(held, Deadline::after(0), 600);
        EXPECT_THROW(pb.lock(other, Deadline::after(0.5), 600), LockTimeout) << variant;
        EXPECT_TRUE(pa.has_remaining_ttl(held, 500)) << variant << ": the holder keeps its row";
        EXPECT_TRUE(pa.unlock(held)) << variant;
        EXPECT_NO_THROW(pb.lock(other, Deadline::after(5), 600)) << variant;
        EXPECT_TRUE(pb.unlock(other)) << variant;
    }
}

// A holder of another spelling whose session died is still taken over at once (its own
// GET_LOCK is free), not waited out until its TTL.
// A holder hung past its TTL under another spelling: our GET_LOCK is granted beside its own
// (GET_LOCK keeps the spellings apart, the table's unique key does not), the claim takes its row,
// and it is KILLed before lock() returns, as a hung holder of our own spelling is: its
// transaction on that session must not commit.
TEST_F(MysqlServer, AHungHolderOfAnotherSpellingIsKilledWhenItsRowIsTaken) {
    NativeSession a(server()), b(server());
    std::string n = name("Spell-hung");
    std::string lower = n;
    for (char &c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    pa.lock(n, Deadline::after(0), 1);
    const auto holder = static_cast<long long>(a.connection_id());
    std::this_thread::sleep_for(std::chrono::milliseconds(2200));  // past its TTL, still holding
    pb.lock(lower, Deadline::after(10), 30);
    // lock() returned only once the hung holder let go of its GET_LOCK.
    EXPECT_FALSE(b.execute("SELECT IS_USED_LOCK(?)", {Param::str(n)}, true, false).value)
        << "the hung holder still holds GET_LOCK under its spelling";
    Result alive = b.execute(
        "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? AND COMMAND <> 'Killed'",
        {Param::integer(holder)}, true, false);
    for (int i = 0; i < 100 && alive.value && *alive.value != "0"; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        alive = b.execute(
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? AND "
            "COMMAND <> 'Killed'",
            {Param::integer(holder)}, true, false);
    }
    EXPECT_EQ(alive.value, std::optional<std::string>("0")) << "the hung holder was not killed";
    EXPECT_TRUE(pb.has_remaining_ttl(lower, 20));
    EXPECT_TRUE(pb.unlock(lower));
}

TEST_F(MysqlServer, AnotherSpellingTakesOverADeadHoldersRow) {
    auto a = std::make_unique<NativeSession>(server());
    NativeSession b(server());
    std::string n = name("spell-dead");
    std::string upper = n;
    for (char &c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    Protocol(*a, QuoteStyle::Default).lock(n, Deadline::after(0), 600);
    a.reset();
    Protocol pb(b, QuoteStyle::Default);
    auto t0 = std::chrono::steady_clock::now();
    pb.lock(upper, Deadline::after(10), 30);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5);
    EXPECT_TRUE(pb.has_remaining_ttl(upper, 20));
    EXPECT_TRUE(pb.unlock(upper));
}

// A waiter granted GET_LOCK finds a live row of another spelling standing (written while the
// holder of our spelling let go): it does not take it, and holds nothing until that row goes.
TEST_F(MysqlServer, HandOffLeavesALiveRowOfAnotherSpelling) {
    NativeSession a(server()), b(server()), v(server());
    std::string n = name("spell-handoff");
    std::string upper = n;
    for (char &c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    pa.lock(n, Deadline::after(0), 600);
    b.ensure_connected();
    const unsigned long b_id = b.connection_id();
    bool timed_out = false;
    std::thread waiter([&] {
        try {
            pb.lock(n, Deadline::after(1.5), 600);
        } catch (const LockTimeout &) {
            timed_out = true;
        }
    });
    wait_until_in_get_lock(v, b_id);
    // The row passes to a live holder of the other spelling; then a lets its GET_LOCK go.
    v.execute("SELECT GET_LOCK(?, 0)", {Param::str(upper)}, true, false);
    v.execute(
        "UPDATE shared_locks SET name = ?, connection_id = connection_id(), created = "
        "unix_timestamp(), ttl = 600, lock_acquired = 1 WHERE name = ?",
        {Param::str(upper), Param::str(n)}, true, false);
    a.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    waiter.join();
    EXPECT_TRUE(timed_out) << "granted GET_LOCK, but the row is a live holder's";
    Result row = v.execute("SELECT connection_id FROM shared_locks WHERE name = ?", {Param::str(n)},
                           true, false);
    ASSERT_TRUE(row.value.has_value());
    EXPECT_EQ(*row.value, std::to_string(v.connection_id()));
    EXPECT_EQ(b.execute("SELECT IS_USED_LOCK(?)", {Param::str(n)}, true, false).value, std::nullopt)
        << "the waiter gave GET_LOCK back";
    v.execute("DELETE FROM shared_locks WHERE name = ?", {Param::str(upper)}, true, false);
}

// A session holding GET_LOCK without a row (php-lock's MySQLMutex, an application's own
// GET_LOCK): the package's rule KILLs it after a second; the native API's waits for it.
TEST_F(MysqlServer, RowlessHolderIsWaitedForWhenKillsAreOff) {
    NativeSession holder(server()), b(server());
    std::string n = name("rowless");
    holder.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    const auto session = holder.generation();
    std::thread release_later([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2500));
        holder.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    });
    Protocol pb(b, QuoteStyle::Default);
    pb.set_kill_rowless_holders(false);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_NO_THROW(pb.lock(n, Deadline::after(10), 30));
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    release_later.join();
    EXPECT_GE(took, 2.0) << "acquired only once the holder let go";
    holder.ensure_connected();
    EXPECT_EQ(holder.generation(), session) << "the holder was not killed";
    EXPECT_TRUE(pb.unlock(n));
}

TEST_F(MysqlServer, RowlessHolderIsKilledUnderThePackagesRule) {
    NativeSession holder(server()), b(server());
    std::string n = name("rowless-kill");
    holder.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    const auto session = holder.generation();
    Protocol pb(b, QuoteStyle::Default);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_NO_THROW(pb.lock(n, Deadline::after(10), 30));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 8);
    holder.ensure_connected();  // a killed session is replaced
    EXPECT_NE(holder.generation(), session) << "the holder was killed";
    EXPECT_TRUE(pb.unlock(n));
}

// A session shared with the application (as a PDO's) waits for a rowless holder up to the
// caller's deadline when kills are off, and leaves no row behind.
// Without a side session (max_user_connections reached, say) nothing looks at the row during a
// wait: the looks after each wait, a server-side wait apart, still make the second after which
// a holder with no row is ended.
TEST_F(MysqlServer, RowlessHolderIsKilledAlsoWithoutASideSession) {
    struct NoSideSession : NativeSession {
        using NativeSession::NativeSession;
        Session *side_session() override { return nullptr; }
    };
    ConnectParams params = server();
    params.read_timeout = 3;  // waits of 2 s each
    NativeSession holder(server());
    NoSideSession b(params);
    std::string n = name("rowless-noside");
    holder.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    const auto session = holder.generation();
    Protocol pb(b, QuoteStyle::Default);
    WaitMemory memory;
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_NO_THROW(pb.lock(
        n, Deadline::after(15), 30, [] { return false; }, &memory));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 12);
    holder.ensure_connected();  // a killed session is replaced
    EXPECT_NE(holder.generation(), session) << "the holder was killed";
    EXPECT_TRUE(pb.unlock(n));
}

TEST_F(MysqlServer, SharedSessionWaitsForARowlessHolderUntilTheDeadline) {
    NativeSession holder(server()), b(server()), probe(server());
    std::string n = name("rowless-pdo");
    holder.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    const auto session = holder.generation();
    SharedView view(b);
    Protocol pb(view, QuoteStyle::Default);
    pb.set_kill_rowless_holders(false);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(pb.lock(n, Deadline::after(1.0), 30), LockTimeout);
    EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.9);
    holder.ensure_connected();
    EXPECT_EQ(holder.generation(), session) << "the holder was not killed";
    EXPECT_EQ(probe
                  .execute("SELECT COUNT(*) FROM shared_locks WHERE name = ?", {Param::str(n)},
                           true, false)
                  .value,
              std::optional<std::string>("0"));
    holder.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    EXPECT_NO_THROW(pb.lock(n, Deadline::after(5), 30));
    EXPECT_TRUE(pb.unlock(n));
}

// A take-over writes the taker's spelling into the row: the row always names the GET_LOCK its
// holder took, so the first spelling cannot take it back while the taker holds.
TEST_F(MysqlServer, TakeOverWritesTheTakersSpelling) {
    auto dead = std::make_unique<NativeSession>(server());
    NativeSession s(server()), u(server()), probe(server());
    std::string n = name("spell-take");
    std::string upper = n;
    for (char &c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    Protocol(*dead, QuoteStyle::Default).lock(n, Deadline::after(0), 600);
    dead.reset();  // its row stays, marked acquired
    Protocol ps(s, QuoteStyle::Default), pu(u, QuoteStyle::Default);
    ps.lock(upper, Deadline::after(10), 600);
    Result row = probe.execute("SELECT BINARY name FROM shared_locks WHERE name = ?",
                               {Param::str(n)}, true, false);
    EXPECT_EQ(row.value, std::optional<std::string>(upper));
    EXPECT_THROW(pu.lock(n, Deadline::after(0.5), 600), LockTimeout);
    EXPECT_TRUE(ps.has_remaining_ttl(upper, 500));
    EXPECT_TRUE(ps.unlock(upper));
}

// GET_LOCK keys a name by its bytes in the holder's connection character set: a latin1 holder
// of "café" holds another GET_LOCK than a utf8mb4 client asking for "café", but the same row.
// The row's holder is asked about in each encoding, so its live row is not taken.
TEST_F(MysqlServer, AHolderOfAnotherCharacterSetKeepsItsRow) {
    ConnectParams latin1 = server();
    latin1.charset = "latin1";
    NativeSession h(latin1), u(server());
    Protocol ph(h, QuoteStyle::Default), pu(u, QuoteStyle::Default);
    const std::string stem = name("cs");
    ph.lock(stem + "-caf\xe9", Deadline::after(0), 600);
    EXPECT_THROW(pu.lock(stem + "-caf\xc3\xa9", Deadline::after(0.5), 600), LockTimeout);
    EXPECT_TRUE(ph.has_remaining_ttl(stem + "-caf\xe9", 500)) << "the holder keeps its row";
    EXPECT_TRUE(ph.unlock(stem + "-caf\xe9"));
    EXPECT_NO_THROW(pu.lock(stem + "-caf\xc3\xa9", Deadline::after(5), 600));
    EXPECT_TRUE(pu.unlock(stem + "-caf\xc3\xa9"));
}

// The row-first path (kills off) waits for GET_LOCK with its row standing; if its row is taken
// meanwhile (here: it outlived its TTL, and a waiter granted GET_LOCK took it over), it starts
// over instead of waiting for ever. A waiter goes there after a slice in line when the row it
// meets is past its TTL: here a dead holder's, while a rowless session holds GET_LOCK.
TEST_F(MysqlServer, RowFirstWaiterWhoseRowIsTakenStartsOver) {
    auto dead = std::make_unique<NativeSession>(server());
    NativeSession m(server()), r(server()), x(server());
    std::string n = name("row-taken");
    Protocol(*dead, QuoteStyle::Default).lock(n, Deadline::after(0), 1);
    dead.reset();
    std::this_thread::sleep_for(std::chrono::milliseconds(2200));      // its row is past its TTL
    m.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);  // a rowless holder
    SharedView view(r);
    Protocol pr(view, QuoteStyle::Default), px(x, QuoteStyle::Default);
    pr.set_kill_rowless_holders(false);
    px.set_kill_rowless_holders(false);
    bool r_got = false, r_unlocked = false;
    double r_took = 0;
    std::string r_failure, x_failure;
    std::thread rt([&] {
        auto t0 = std::chrono::steady_clock::now();
        try {
            pr.lock(n, Deadline::after(8), 2);  // its row is past its TTL after 2-3 s
            r_got = true;
            // At once: x, behind r in the line, would take r's row over once it is past its
            // TTL, and end r's session.
            r_unlocked = pr.unlock(n);
        } catch (const std::exception &e) {
            r_failure = e.what();
        }
        r_took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    NativeSession probe(server());
    EXPECT_EQ(probe
                  .execute("SELECT NOT lock_acquired AND ttl = 2 FROM shared_locks WHERE name = ?",
                           {Param::str(n)}, true, false)
                  .value,
              std::optional<std::string>("1"))
        << "r took the stale row over and waits on the row-first path";
    std::thread xt([&] {
        try {
            px.lock(n, Deadline::after(8), 600);  // waits in GET_LOCK
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            if (!px.unlock(n)) x_failure = "unlock failed";
        } catch (const std::exception &e) {
            x_failure = e.what();
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(3300));  // r's row is past its TTL
    m.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    xt.join();
    rt.join();
    // r's session used to be KILLed here, now and then: x took r's row over (unmarked, past
    // its TTL) and named r its victim while r held GET_LOCK for a moment, to probe.
    EXPECT_EQ(r_failure, "");
    EXPECT_EQ(x_failure, "");
    EXPECT_TRUE(r_got) << "waited " << r_took << " s";
    EXPECT_LT(r_took, 7.0);
    EXPECT_TRUE(r_unlocked);
}

// A stale row not marked acquired, past its TTL, and its session holding GET_LOCK: a waiter of
// the row-first path probing once its row is gone, or a client of the package's order that got
// GET_LOCK and could not mark its row. Returns that session's generation.
static std::uint64_t unmarked_stale_row_with_get_lock(NativeSession &w, const std::string &n) {
    w.execute(
        "INSERT INTO shared_locks (name, connection_id, created, ttl, lock_acquired) "
        "VALUES (?, connection_id(), unix_timestamp() - 100, 1, false)",
        {Param::str(n)}, true, false);
    w.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    return w.generation();
}

// Waits (up to 5 s) until `session_id` owns the row of `n`: a contender took it over.
static void wait_for_row_owner(NativeSession &probe, const std::string &n,
                               const std::optional<std::string> &session_id) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (probe.execute("SELECT connection_id FROM shared_locks WHERE name = ?", {Param::str(n)},
                         true, false)
                   .value != session_id &&
           std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// Runs p.lock(n) (deadline 10 s, TTL 30 s) in a thread; what it throws goes to `failure`.
static std::thread lock_in_background(Protocol &p, const std::string &n, std::string &failure) {
    return std::thread([&p, n, &failure] {
        try {
            p.lock(n, Deadline::after(10), 30);
        } catch (const std::exception &e) {
            failure = e.what();
        }
    });
}

// Whoever takes such a row over does not KILL its session for holding GET_LOCK a moment (it
// used to, and the waiter's lock() failed with a lost session: CI, 2026-11-27). Here it holds
// on for 300 ms after the take-over, then lets go; the taker gets the lock.
TEST_F(MysqlServer, TheSessionOfAnUnmarkedRowTakenOverIsNotKilledForAProbe) {
    for (bool kill_rowless : {false, true}) {
        SCOPED_TRACE(kill_rowless ? "rowless holders killed" : "rowless holders waited for");
        NativeSession w(server()), x(server()), probe(server());
        const std::string n = name(kill_rowless ? "unmarked-probe-k" : "unmarked-probe");
        const auto session = unmarked_stale_row_with_get_lock(w, n);
        const auto x_id = x.execute("SELECT CONNECTION_ID()", {}, false, false).value;
        Protocol px(x, QuoteStyle::Default);
        px.set_kill_rowless_holders(kill_rowless);
        std::string failure;
        std::thread xt = lock_in_background(px, n, failure);
        wait_for_row_owner(probe, n, x_id);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // x took the row over
        w.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
        xt.join();
        EXPECT_EQ(failure, "");
        w.ensure_connected();
        EXPECT_EQ(w.generation(), session) << "the probing session was KILLed";
        if (failure.empty()) EXPECT_TRUE(px.unlock(n));
    }
}

// Held for a whole second, GET_LOCK is hung or leaked (the package's getLock() throws without
// RELEASE_LOCK when its row was taken): the session is KILLed, kills of rowless holders on or
// off, and the taker gets the lock; with a deadline of 0 too (the TTL promise holds whatever
// the deadline; a deadline shorter than the second used to time out and give the row back).
TEST_F(MysqlServer, TheSessionOfAnUnmarkedRowTakenOverIsKilledAfterHoldingASecond) {
    for (bool kill_rowless : {false, true}) {
        for (double budget : {10.0, 0.0}) {
            SCOPED_TRACE(std::string(kill_rowless ? "rowless holders killed"
                                                  : "rowless holders waited for") +
                         ", deadline " + std::to_string(budget));
            NativeSession w(server()), x(server());
            const std::string n =
                name((std::string(kill_rowless ? "unmarked-hung-k" : "unmarked-hung") +
                      (budget > 0 ? "" : "-0"))
                         .c_str());
            const auto session = unmarked_stale_row_with_get_lock(w, n);
            Protocol px(x, QuoteStyle::Default);
            px.set_kill_rowless_holders(kill_rowless);
            const auto t0 = std::chrono::steady_clock::now();
            EXPECT_NO_THROW(px.lock(n, Deadline::after(budget), 30));
            const double took =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            EXPECT_GE(took, 1.0);
            EXPECT_LT(took, 8.0);
            w.ensure_connected();
            EXPECT_NE(w.generation(), session) << "the hung session was not KILLed";
            EXPECT_TRUE(px.unlock(n));
        }
    }
}

// A session whose marked row past its TTL is taken over after it let go, and that then holds
// GET_LOCK for a moment (a new lock() probing, or granted in line), is not KILLed for that:
// only one that held the lock at the take-over, and has held GET_LOCK at every look since, is
// ended at once (it was, review of 2026-11-27; so was a new session that got a dead one's id
// after a restart). Here h lets go to m, in line, before x takes h's row over; then h is
// granted GET_LOCK behind m and holds it for 300 ms.
TEST_F(MysqlServer, ASessionThatLetGoBeforeItsRowWasTakenIsNotKilledForALaterHold) {
    for (bool kill_rowless : {false, true}) {
        SCOPED_TRACE(kill_rowless ? "rowless holders killed" : "rowless holders waited for");
        NativeSession h(server()), m(server()), x(server()), probe(server());
        const std::string n = name(kill_rowless ? "let-go-k" : "let-go");
        h.execute(
            "INSERT INTO shared_locks (name, connection_id, created, ttl, lock_acquired) "
            "VALUES (?, connection_id(), unix_timestamp() - 100, 1, true)",
            {Param::str(n)}, true, false);
        h.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
        const auto session = h.generation();
        // m waits in line behind h, so h's release goes to m.
        m.ensure_connected();
        const unsigned long m_id = m.connection_id(), h_id = h.connection_id();
        std::thread mt([&] { m.execute("SELECT GET_LOCK(?, 10)", {Param::str(n)}, true, false); });
        wait_until_in_get_lock(probe, m_id);
        h.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
        mt.join();
        const auto x_id = x.execute("SELECT CONNECTION_ID()", {}, false, false).value;
        Protocol px(x, QuoteStyle::Default);
        px.set_kill_rowless_holders(kill_rowless);
        std::string failure;
        std::thread xt = lock_in_background(px, n, failure);
        wait_for_row_owner(probe, n, x_id);  // after a slice in line, x took h's row over
        std::thread ht([&] {
            h.execute("SELECT GET_LOCK(?, 5)", {Param::str(n)}, true, false);  // behind m
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            h.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
        });
        wait_until_in_get_lock(probe, h_id);
        m.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);  // to h
        ht.join();
        xt.join();
        EXPECT_EQ(failure, "");
        h.ensure_connected();
        EXPECT_EQ(h.generation(), session) << "the session that let go was KILLed";
        if (failure.empty()) EXPECT_TRUE(px.unlock(n));
    }
}

// A waiter granted GET_LOCK after waiting (here behind a rowless utf8mb4 holder) finds a marked
// row whose text is its own spelling, held by a latin1 client: another GET_LOCK (other bytes).
// It leaves that live row alone and times out.
TEST_F(MysqlServer, WaiterGrantedAfterWaitingLeavesALiveRowOfAnotherEncoding) {
    ConnectParams latin1 = server();
    latin1.charset = "latin1";
    NativeSession l(latin1), u(server()), z(server());
    Protocol pl(l, QuoteStyle::Default), pz(z, QuoteStyle::Default);
    pz.set_kill_rowless_holders(false);
    const std::string stem = name("enc-wait");
    pl.lock(stem + "-caf\xe9", Deadline::after(0), 600);
    u.execute("SELECT GET_LOCK(?, 0)", {Param::str(stem + "-caf\xc3\xa9")}, true, false);
    std::thread release_later([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        u.execute("SELECT RELEASE_LOCK(?)", {Param::str(stem + "-caf\xc3\xa9")}, true, false);
    });
    EXPECT_THROW(pz.lock(stem + "-caf\xc3\xa9", Deadline::after(2.0), 600), LockTimeout);
    release_later.join();
    EXPECT_TRUE(pl.has_remaining_ttl(stem + "-caf\xe9", 500)) << "the latin1 holder keeps its row";
    EXPECT_TRUE(pl.unlock(stem + "-caf\xe9"));
}

// Kills off: after taking over a stale row, a session holding GET_LOCK that the row did not
// name (a rowless holder) is waited for up to the deadline, not killed, and lock() times out
// then (it used to spin for 5 s and fail).
TEST_F(MysqlServer, TakeOverMeetingARowlessHolderTimesOutAtTheDeadline) {
    auto dead = std::make_unique<NativeSession>(server());
    NativeSession u(server()), z(server());
    std::string n = name("stale-rowless");
    Protocol(*dead, QuoteStyle::Default).lock(n, Deadline::after(0), 1);
    dead.reset();
    std::this_thread::sleep_for(std::chrono::milliseconds(2200));  // its row is past its TTL
    u.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    const auto session = u.generation();
    Protocol pz(z, QuoteStyle::Default);
    pz.set_kill_rowless_holders(false);
    for (double budget : {1.0, 0.0}) {
        auto t0 = std::chrono::steady_clock::now();
        EXPECT_THROW(pz.lock(n, Deadline::after(budget), 30), LockTimeout) << budget;
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  budget + 1.5)
            << budget;
    }
    u.ensure_connected();
    EXPECT_EQ(u.generation(), session) << "the rowless holder was not killed";
    u.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    EXPECT_NO_THROW(pz.lock(n, Deadline::after(5), 30));
    EXPECT_TRUE(pz.unlock(n));
}

// A waiter on the row-first path (here: it took a stale row over, then lost it to a waiter
// granted GET_LOCK) that is handed GET_LOCK by the row's holder keeps the hand-off: it claims
// the row as a queued waiter does (here its INSERT: the holder's release removed its row). It used
// to give the grant back, so the waiter behind it took the lock on every release; under a hot lock
// whose holder outlived its TTL, the waiters that had fallen back this way timed out at 5 s while
// the others took turns.
TEST_F(MysqlServer, RowFirstWaiterHandedTheLockKeepsItsTurn) {
    NativeSession setup(server()), m(server()), r(server()), x(server()), y(server());
    std::string n = name("row-first-turn");
    // A row marked acquired by a session long gone, past its TTL, and a rowless GET_LOCK
    // holder: r takes the row over and polls for GET_LOCK on the row-first path.
    setup.execute(
        "INSERT INTO shared_locks (name, connection_id, created, ttl, lock_acquired) "
        "VALUES (?, 4000000000, unix_timestamp() - 100, 1, true)",
        {Param::str(n)}, true, false);
    m.execute("SELECT GET_LOCK(?, 0)", {Param::str(n)}, true, false);
    Protocol pr(r, QuoteStyle::Default), px(x, QuoteStyle::Default), py(y, QuoteStyle::Default);
    for (Protocol *p : {&pr, &px, &py}) p->set_kill_rowless_holders(false);
    using Clock = std::chrono::steady_clock;
    std::atomic<bool> r_got{false}, y_got{false};
    Clock::time_point r_at{}, y_at{};
    std::mutex failures_mutex;
    std::string failures;
    // Holds for 300 ms, then releases; any failure is reported, not thrown out of the thread.
    auto take_and_hold = [&](Protocol &p, std::atomic<bool> &got, Clock::time_point &at) {
        try {
            p.lock(n, Deadline::after(15), 600);
            at = Clock::now();
            got = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            if (!p.unlock(n)) throw std::runtime_error("unlock failed");
        } catch (const std::exception &e) {
            std::lock_guard<std::mutex> guard(failures_mutex);
            failures += std::string(e.what()) + "; ";
        }
    };
    std::thread rt([&] { take_and_hold(pr, r_got, r_at); });
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    std::atomic<bool> x_got{false};
    std::thread xt([&] {  // in GET_LOCK's line
        try {
            px.lock(n, Deadline::after(15), 600);
            x_got = true;
        } catch (const std::exception &e) {
            std::lock_guard<std::mutex> guard(failures_mutex);
            failures += std::string("x: ") + e.what() + "; ";
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    // x is granted GET_LOCK and claims r's unmarked row (the row-first order's lock in the
    // making); r loses its row and waits on the row-first path, in GET_LOCK's line.
    m.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
    xt.join();
    ASSERT_TRUE(x_got) << failures;
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    EXPECT_FALSE(r_got);
    std::thread yt([&] { take_and_hold(py, y_got, y_at); });  // behind r in the line
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    EXPECT_TRUE(px.unlock(n));  // hands GET_LOCK to r, first in line
    rt.join();
    yt.join();
    ASSERT_TRUE(r_got && y_got) << failures;
    EXPECT_EQ(failures, "");
    EXPECT_LT(r_at, y_at) << "r, granted first, kept its turn";
}

// On the row-first path, a grant after another contender held GET_LOCK for a moment (here a
// session that holds it 300 ms without a row) is no hand-off: the unmarked row of a client of
// the package's order (between its INSERT and its GET_LOCK) stays that client's, and the
// waiter times out.
TEST_F(MysqlServer, RowFirstWaiterGrantedAfterAMomentaryHoldLeavesAPackageClientsRow) {
    NativeSession c(server()), m(server()), r(server());
    std::string n = name("row-first-pkg");
    c.execute(
        "INSERT INTO shared_locks (name, connection_id, created, ttl, lock_acquired) "
        "VALUES (?, connection_id(), unix_timestamp(), 30, false)",
        {Param::str(n)}, true, false);
    const std::string c_id = std::to_string(c.connection_id());
    Protocol pr(r, QuoteStyle::Default);
    pr.set_kill_rowless_holders(false);
    // Connected before: r reaches the row-first path within a few statements, long before the
    // first hold below (were it still waiting in the queued line then, that line's own rule
    // would judge the grant).
    r.ensure_connected();
    std::atomic<bool> stop{false};
    std::thread momentary([&] {
        // Once r spins on the row-first path (the lock free, the row standing), hold GET_LOCK
        // for 300 ms at a time: r's next probe waits and is granted when we let go.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        while (!stop) {
            m.execute("SELECT GET_LOCK(?, 1)", {Param::str(n)}, true, false);
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            m.execute("SELECT RELEASE_LOCK(?)", {Param::str(n)}, true, false);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    EXPECT_THROW(pr.lock(n, Deadline::after(1.5), 600), LockTimeout);
    stop = true;
    momentary.join();
    NativeSession probe(server());
    EXPECT_EQ(probe
                  .execute("SELECT CONCAT(connection_id, '/', lock_acquired) FROM shared_locks "
                           "WHERE name = ?",
                           {Param::str(n)}, true, false)
                  .value,
              std::optional<std::string>(c_id + "/0"))
        << "the client's row is left as it was";
    probe.execute("DELETE FROM shared_locks WHERE name = ?", {Param::str(n)}, true, false);
}

}  // namespace
