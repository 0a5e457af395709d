// The auto-renewal thread (common/renewer) with renewals of its own, then the Redis and MySQL
// renewals against the real servers.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "common/renewer.hpp"
#include "mysql/native_session.hpp"
#include "mysql/protocol.hpp"
#include "mysql/renewal.hpp"
#include "redis/lock.hpp"
#include "redis/renewal.hpp"
#include "redis_test_server.hpp"

namespace nativelock {
namespace {

using namespace std::chrono_literals;
using renew::Outcome;

// Answers what it is told and counts its calls.
struct Scripted : renew::Renewal {
    std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::atomic<Outcome>> answer =
        std::make_shared<std::atomic<Outcome>>(Outcome::Renewed);
    Outcome renew(renew::Connections &) override {
        ++*calls;
        return answer->load();
    }
};

template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds within) {
    auto until = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < until) {
        if (pred()) return true;
        std::this_thread::sleep_for(5ms);
    }
    return pred();
}

TEST(Renewer, RenewsAtAThirdOfTheTtlUntilTheLeaseEnds) {
    renew::Renewer renewer;
    auto renewal = std::make_unique<Scripted>();
    auto calls = renewal->calls;
    renew::Lease lease = renewer.start(std::move(renewal), 300ms);
    EXPECT_TRUE(renewer.stats().running);
    std::this_thread::sleep_for(80ms);
    EXPECT_EQ(calls->load(), 0) << "the first renewal comes at ttl/3, not at once";
    std::this_thread::sleep_for(1000ms);
    // 1.08 s at 100 ms: about 10 renewals; generous bounds for a loaded machine.
    EXPECT_GE(calls->load(), 4);
    EXPECT_LE(calls->load(), 12);
    EXPECT_EQ(lease.renewed(), static_cast<std::uint64_t>(calls->load()));
    EXPECT_FALSE(lease.lost());
    lease.reset();
    int after_release = calls->load();
    EXPECT_TRUE(eventually([&] { return !renewer.stats().running; }, 2000ms))
        << "the thread stops with its last lease";
    std::this_thread::sleep_for(300ms);
    EXPECT_LE(calls->load(), after_release + 1);
}

TEST(Renewer, ALeaseFoundGoneIsMarkedLostAndNotRenewedAgain) {
    renew::Renewer renewer;
    auto renewal = std::make_unique<Scripted>();
    auto calls = renewal->calls;
    renewal->answer->store(Outcome::Lost);
    renew::Lease lease = renewer.start(std::move(renewal), 60ms);
    ASSERT_TRUE(eventually([&] { return lease.lost(); }, 2000ms));
    std::this_thread::sleep_for(200ms);
    EXPECT_EQ(calls->load(), 1);
    EXPECT_EQ(renewer.stats().lost, 1u);
    EXPECT_EQ(renewer.stats().leases, 0u);
}

TEST(Renewer, FailuresAreRetriedAndALeaseUnrenewedForAWholeTtlIsLost) {
    renew::Renewer renewer;
    auto renewal = std::make_unique<Scripted>();
    auto calls = renewal->calls;
    auto answer = renewal->answer;
    answer->store(Outcome::Failed);
    renew::Lease lease = renewer.start(std::move(renewal), 600ms);
    // First try at 200 ms, then every 60 ms: several tries before the TTL has passed.
    std::this_thread::sleep_for(450ms);
    EXPECT_FALSE(lease.lost());
    EXPECT_GE(calls->load(), 2);
    EXPECT_TRUE(eventually([&] { return lease.lost(); }, 2000ms));
    EXPECT_GE(lease.failed(), 3u);
}

TEST(Renewer, AFailureThatRecoversKeepsTheLease) {
    renew::Renewer renewer;
    auto renewal = std::make_unique<Scripted>();
    auto answer = renewal->answer;
    answer->store(Outcome::Failed);
    renew::Lease lease = renewer.start(std::move(renewal), 600ms);
    ASSERT_TRUE(eventually([&] { return lease.failed() >= 1; }, 2000ms));
    answer->store(Outcome::Renewed);
    ASSERT_TRUE(eventually([&] { return lease.renewed() >= 1; }, 2000ms));
    std::this_thread::sleep_for(800ms);
    EXPECT_FALSE(lease.lost());
}

TEST(Renewer, ManyLeasesOneThread) {
    renew::Renewer renewer;
    std::vector<renew::Lease> leases;
    std::vector<std::shared_ptr<std::atomic<int>>> calls;
    for (int i = 0; i < 50; ++i) {
        auto r = std::make_unique<Scripted>();
        calls.push_back(r->calls);
        leases.push_back(renewer.start(std::move(r), 150ms));
    }
    EXPECT_EQ(renewer.stats().threads_started, 1u);
    std::this_thread::sleep_for(600ms);
    for (auto &c : calls) EXPECT_GE(c->load(), 2);
    leases.erase(leases.begin(), leases.begin() + 25);
    EXPECT_EQ(renewer.stats().leases, 25u);
    leases.clear();
    EXPECT_TRUE(eventually([&] { return !renewer.stats().running; }, 2000ms));
}

TEST(Renewer, StartsAgainAfterStopping) {
    renew::Renewer renewer;
    for (int round = 0; round < 20; ++round) {
        auto r = std::make_unique<Scripted>();
        auto calls = r->calls;
        renew::Lease lease = renewer.start(std::move(r), 30ms);
        ASSERT_TRUE(eventually([&] { return calls->load() >= 1; }, 2000ms)) << round;
    }
    EXPECT_GE(renewer.stats().threads_started, 1u);
}

// A forked child neither renews the parent's leases nor stops them; it can start its own.
TEST(Renewer, AForkedChildHasNoneOfTheParentsLeases) {
    renew::Renewer renewer;
    auto r = std::make_unique<Scripted>();
    auto calls = r->calls;
    renew::Lease lease = renewer.start(std::move(r), 60ms);
    ASSERT_TRUE(eventually([&] { return calls->load() >= 1; }, 2000ms));
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        int code = 0;
        auto s = renewer.stats();
        if (s.running || s.leases != 0) code = 1;
        lease.reset();  // the parent's: inert here
        auto own = std::make_unique<Scripted>();
        auto own_calls = own->calls;
        renew::Lease mine = renewer.start(std::move(own), 30ms);
        if (!eventually([&] { return own_calls->load() >= 2; }, 2000ms)) code = 2;
        mine.reset();
        _exit(code);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    int before = calls->load();
    EXPECT_TRUE(eventually([&] { return calls->load() >= before + 2; }, 2000ms))
        << "the parent goes on renewing";
    EXPECT_EQ(renewer.stats().leases, 1u);
}

// --- Redis ---------------------------------------------------------------------------------

class RedisRenewal : public redis::test_support::RedisServerTest {
  protected:
    void SetUp() override { connect("nativelock:test:renew:"); }
};

TEST_F(RedisRenewal, KeepsAOneSecondKeyAliveAndStopsAtRelease) {
    renew::Renewer renewer;
    ASSERT_TRUE(redis::try_acquire(*conn_, key_, "mine", 1));
    renew::Lease lease = renewer.start(
        redis::make_renewal(redis::test_support::server(), key_, "mine", 1000), 1000ms);
    std::this_thread::sleep_for(2500ms);
    EXPECT_TRUE(redis::is_held(*conn_, key_, "mine")) << "renewed past its 1 s TTL";
    EXPECT_GE(lease.renewed(), 4u);
    EXPECT_EQ(renewer.stats().connections, 1u);
    lease.reset();
    EXPECT_TRUE(eventually([&] { return !renewer.stats().running; }, 2000ms));
    EXPECT_TRUE(eventually([&] { return !redis::is_held(*conn_, key_, "mine"); }, 2500ms))
        << "expires at its TTL once nobody renews it";
}

TEST_F(RedisRenewal, AKeyTakenByAnotherIsMarkedLostAndNotExtended) {
    renew::Renewer renewer;
    ASSERT_TRUE(redis::try_acquire(*conn_, key_, "mine", 1));
    renew::Lease lease = renewer.start(
        redis::make_renewal(redis::test_support::server(), key_, "mine", 1000), 1000ms);
    conn_->command({"SET", key_, "theirs", "PX", "900"});
    ASSERT_TRUE(eventually([&] { return lease.lost(); }, 2000ms));
    auto pttl = redis::reply_integer(conn_->command({"PTTL", key_}).get());
    EXPECT_LE(pttl, 900) << "their TTL is left alone";
    EXPECT_TRUE(redis::is_held(*conn_, key_, "theirs"));
}

// --- MySQL ---------------------------------------------------------------------------------

mysql::ConnectParams mysql_server() {
    mysql::ConnectParams p;
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

class MysqlRenewal : public ::testing::Test {
  protected:
    void SetUp() override {
        try {
            mysql::NativeSession probe(mysql_server());
            probe.ensure_connected();
        } catch (const std::exception &e) {
            if (redis::test_support::in_ci()) FAIL() << e.what();
            GTEST_SKIP() << "mariadbd not reachable: " << e.what();
        }
        name_ = "renew-" + std::to_string(::getpid()) + "-" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() %
                               1000000000);
    }
    std::string name_;
};

TEST_F(MysqlRenewal, KeepsATwoSecondRowAliveAgainstATakeOver) {
    renew::Renewer renewer;
    mysql::NativeSession a(mysql_server()), b(mysql_server());
    mysql::Protocol pa(a, mysql::QuoteStyle::Default), pb(b, mysql::QuoteStyle::Default);
    pa.lock(name_, Deadline::after(0), 2);
    renew::Lease lease =
        renewer.start(mysql::make_renewal(mysql_server(), mysql::QuoteStyle::Default,
                                          "shared_locks", name_, a.connection_id(), 2),
                      2000ms);
    // Past its TTL twice over: a contender would take over a stale row (and KILL the holder).
    EXPECT_THROW(pb.lock(name_, Deadline::after(4.5), 2), mysql::LockTimeout);
    EXPECT_TRUE(pa.has_remaining_ttl(name_, 0));
    EXPECT_GE(lease.renewed(), 4u);
    EXPECT_FALSE(lease.lost());
    lease.reset();
    EXPECT_TRUE(pa.unlock(name_));
}

TEST_F(MysqlRenewal, ARowOfAnotherSessionIsLost) {
    renew::Renewer renewer;
    mysql::NativeSession a(mysql_server());
    mysql::Protocol pa(a, mysql::QuoteStyle::Default);
    pa.lock(name_, Deadline::after(0), 3);
    renew::Lease lease =
        renewer.start(mysql::make_renewal(mysql_server(), mysql::QuoteStyle::Default,
                                          "shared_locks", name_, a.connection_id(), 1),
                      1000ms);
    ASSERT_TRUE(eventually([&] { return lease.renewed() >= 1; }, 3000ms));
    EXPECT_TRUE(pa.unlock(name_));  // the holder gives it up behind the renewer's back
    EXPECT_TRUE(eventually([&] { return lease.lost(); }, 3000ms));
}

}  // namespace
}  // namespace nativelock
