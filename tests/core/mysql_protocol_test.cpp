// The SharedLock protocol: against a scripted session (statement count, SQL shape, error
// handling) and against the real mariadbd of tests/servers (skipped unless it answers; a skip
// fails in CI).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <functional>
#include <string>
#include <thread>

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
        sql.push_back(s);
        return answer(s, params);
    }
};

Result affected(std::uint64_t n) {
    Result r;
    r.affected = n;
    return r;
}

Result value(const std::string &v) {
    Result r;
    r.has_row = true;
    r.value = v;
    r.rows.push_back({v});
    return r;
}

TEST(MysqlProtocol, UncontendedLockAndUnlockTakeTwoStatements) {
    ScriptedSession s;
    s.answer = [](const std::string &sql, const std::vector<Param> &) {
        if (sql.rfind("INSERT", 0) == 0) {
            Result r = affected(1);
            r.insert_id = 1;
            return r;
        }
        if (sql.rfind("DELETE", 0) == 0) return affected(1);
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock("a", 5, 10);
    EXPECT_TRUE(p.unlock("a"));
    ASSERT_EQ(s.sql.size(), 2u);
    EXPECT_NE(s.sql[0].find("INSERT INTO `shared_locks` (`name`, `created`, `ttl`, "
                            "`connection_id`, `lock_acquired`)"),
              std::string::npos);
    EXPECT_NE(s.sql[0].find("GET_LOCK(?, 0)"), std::string::npos);
    EXPECT_NE(s.sql[1].find("RELEASE_LOCK(?)"), std::string::npos);
}

TEST(MysqlProtocol, SharedSessionUsesThePackagesOrderInThreeStatements) {
    ScriptedSession s;
    s.exclusive_ = false;
    s.answer = [](const std::string &sql, const std::vector<Param> &) {
        EXPECT_EQ(sql.find("LAST_INSERT_ID"), std::string::npos);
        return affected(1);
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock("a", 5, 10);
    EXPECT_TRUE(p.unlock("a"));
    ASSERT_EQ(s.sql.size(), 3u);
    EXPECT_NE(s.sql[1].find("UPDATE `shared_locks` SET `lock_acquired` = true"), std::string::npos);
}

TEST(MysqlProtocol, AnsiQuoteStyle) {
    ScriptedSession s;
    s.answer = [](const std::string &, const std::vector<Param> &) { return affected(1); };
    Protocol p(s, QuoteStyle::Ansi);
    p.lock("a", 0, 10);
    EXPECT_NE(s.sql[0].find("INSERT INTO \"shared_locks\" (\"name\""), std::string::npos);
}

TEST(MysqlProtocol, NamesAreBoundNeverSpliced) {
    ScriptedSession s;
    std::string evil = "x'); DROP TABLE shared_locks; --";
    s.answer = [&](const std::string &sql, const std::vector<Param> &params) {
        EXPECT_EQ(sql.find(evil), std::string::npos);
        EXPECT_EQ(params[0].s, evil);
        return affected(1);
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock(evil, 0, 10);
    p.unlock(evil);
}

TEST(MysqlProtocol, TimeoutZeroIsOneAttempt) {
    ScriptedSession s;
    s.answer = [](const std::string &sql, const std::vector<Param> &) -> Result {
        if (sql.rfind("INSERT", 0) == 0) throw SqlError(1062, "23000", "Duplicate entry");
        if (sql.rfind("DELETE", 0) == 0) return affected(0);
        if (sql.rfind("SELECT RELEASE_LOCK", 0) == 0) return value("1");
        ADD_FAILURE() << "unexpected " << sql;
        return Result();
    };
    Protocol p(s, QuoteStyle::Default);
    EXPECT_THROW(p.lock("a", 0, 10), LockTimeout);
    EXPECT_EQ(s.sql.size(), 3u);  // INSERT…GET_LOCK (duplicate), RELEASE_LOCK, clean
}

TEST(MysqlProtocol, LongNamesAreRejectedNotTruncated) {
    ScriptedSession s;
    s.answer = [](const std::string &, const std::vector<Param> &) { return affected(1); };
    Protocol p(s, QuoteStyle::Default);
    EXPECT_THROW(p.lock(std::string(65, 'x'), 0, 10), InvalidArgument);
    EXPECT_NO_THROW(p.lock(std::string(64, 'x'), 0, 10));
    std::string e_acute = "\xc3\xa9";
    std::string utf8;
    for (int i = 0; i < 64; ++i) utf8 += e_acute;
    EXPECT_EQ(name_length(utf8), 64u);
    EXPECT_NO_THROW(p.lock(utf8, 0, 10));
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
        return affected(1);
    };
    Protocol p(s, QuoteStyle::Default);
    p.lock("a", 0, 10);
    EXPECT_EQ(inserts, 2);
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
    p.lock(n, 0, 10);
    ASSERT_TRUE(p.unlock(n));
    auto before = a.round_trips();
    p.lock(n, 0, 10);
    ASSERT_TRUE(p.unlock(n));
    EXPECT_EQ(a.round_trips() - before, 2u);
}

TEST_F(MysqlServer, SecondSessionTimesOutThenGetsTheLockAfterRelease) {
    NativeSession a(server()), b(server());
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    std::string n = name("two");
    pa.lock(n, 0, 10);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(pb.lock(n, 0.5, 10), LockTimeout);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_GE(took, 0.45);
    EXPECT_LT(took, 5);
    std::thread releaser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        pa.unlock(n);
    });
    t0 = std::chrono::steady_clock::now();
    pb.lock(n, 10, 10);
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
    Protocol(*a, QuoteStyle::Default).lock(n, 0, 600);
    a.reset();  // QUIT: GET_LOCK released, row stays with lock_acquired = 1
    Protocol pb(b, QuoteStyle::Default);
    pb.lock(n, 0, 10);
    EXPECT_TRUE(pb.unlock(n));
}

TEST_F(MysqlServer, HolderPastTtlIsKilled) {
    NativeSession a(server()), b(server());
    std::string n = name("ttl");
    Protocol pa(a, QuoteStyle::Default), pb(b, QuoteStyle::Default);
    pa.lock(n, 0, 1);
    auto t0 = std::chrono::steady_clock::now();
    pb.lock(n, 10, 10);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(took, 5);
    EXPECT_FALSE(pa.has_remaining_ttl(n, 0)) << "the hung holder's session was killed";
    EXPECT_TRUE(pb.unlock(n));
}

}  // namespace
