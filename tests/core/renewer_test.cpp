// The auto-renewal thread (common/renewer) with renewals of its own, then the Redis and MySQL
// renewals against the real servers.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
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
    renew::Lease lease = renewer.start(std::move(renewal), 600ms);
    EXPECT_TRUE(renewer.stats().running);
    std::this_thread::sleep_for(80ms);
    EXPECT_EQ(calls->load(), 0) << "the first renewal comes at ttl/3, not at once";
    std::this_thread::sleep_for(2000ms);
    // 2.08 s at 200 ms: about 10 renewals; generous bounds for a loaded machine.
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
    renew::Lease lease = renewer.start(std::move(renewal), 300ms);
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
    renew::Lease lease = renewer.start(std::move(renewal), 1200ms);
    // First try at 400 ms, then every 120 ms: several tries before the TTL has passed.
    std::this_thread::sleep_for(700ms);
    EXPECT_FALSE(lease.lost());
    EXPECT_GE(calls->load(), 2);
    EXPECT_TRUE(eventually([&] { return lease.lost(); }, 3000ms));
    EXPECT_GE(lease.failed(), 3u);
}

TEST(Renewer, AFailureThatRecoversKeepsTheLease) {
    renew::Renewer renewer;
    auto renewal = std::make_unique<Scripted>();
    auto answer = renewal->answer;
    answer->store(Outcome::Failed);
    renew::Lease lease = renewer.start(std::move(renewal), 1200ms);
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
        leases.push_back(renewer.start(std::move(r), 300ms));
    }
    EXPECT_EQ(renewer.stats().threads_started, 1u);
    std::this_thread::sleep_for(1000ms);
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
        renew::Lease lease = renewer.start(std::move(r), 300ms);
        ASSERT_TRUE(eventually([&] { return calls->load() >= 1; }, 2000ms)) << round;
    }
    EXPECT_GE(renewer.stats().threads_started, 1u);
}

// Takes `delay` for each renewal (a server that answers slowly), then answers Renewed.
struct Slow : renew::Renewal {
    std::chrono::milliseconds delay;
    std::shared_ptr<std::atomic<int>> started = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::atomic<int>> finished = std::make_shared<std::atomic<int>>(0);
    explicit Slow(std::chrono::milliseconds d) : delay(d) {}
    Outcome renew(renew::Connections &) override {
        ++*started;
        std::this_thread::sleep_for(delay);
        ++*finished;
        return Outcome::Renewed;
    }
};

// Blocks each renewal until released (a server that has not answered yet).
struct Latched : renew::Renewal {
    struct Gate {
        std::mutex mutex;
        std::condition_variable opened;
        bool open = false;
        int started = 0;
        int finished = 0;
    };
    std::shared_ptr<Gate> gate = std::make_shared<Gate>();
    Outcome renew(renew::Connections &) override {
        std::unique_lock<std::mutex> lock(gate->mutex);
        ++gate->started;
        gate->opened.wait(lock, [&] { return gate->open; });
        ++gate->finished;
        return Outcome::Renewed;
    }
};

// Ending a lease while its renewal is on the wire waits for that renewal: the holder's next
// step (a release, a new acquisition with the same token) cannot be overtaken by it.
TEST(Renewer, ResetWaitsForARenewalInFlight) {
    renew::Renewer renewer;
    auto r = std::make_unique<Latched>();
    auto gate = r->gate;
    renew::Lease lease = renewer.start(std::move(r), 3000ms);  // first renewal at 1 s
    ASSERT_TRUE(eventually(
        [&] {
            std::lock_guard<std::mutex> lock(gate->mutex);
            return gate->started == 1;
        },
        5000ms));
    std::atomic<bool> reset_done{false};
    std::thread holder([&] {
        lease.reset();
        reset_done = true;
    });
    std::this_thread::sleep_for(300ms);
    EXPECT_FALSE(reset_done.load()) << "reset() returned while the renewal was in flight";
    {
        std::lock_guard<std::mutex> lock(gate->mutex);
        gate->open = true;
    }
    gate->opened.notify_all();
    holder.join();
    std::lock_guard<std::mutex> lock(gate->mutex);
    EXPECT_EQ(gate->finished, 1);
    EXPECT_EQ(gate->started, 1) << "no renewal after the lease ended";
}

// Two PHP threads (ZTS) starting leases while the renewer thread is on its way out: one joins
// the old thread and starts a new one; the other must not join that new, running thread (it
// would wait until every lease ended).
TEST(Renewer, ConcurrentStartsWhileTheThreadLeavesDoNotBlock) {
    // A connection that takes a while to close: the old thread is still leaving when the
    // starts come.
    struct SlowToClose {
        ~SlowToClose() { std::this_thread::sleep_for(300ms); }
    };
    struct OpensSlowToClose : renew::Renewal {
        std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
        Outcome renew(renew::Connections &connections) override {
            connections.get<SlowToClose>("slow", [] { return std::make_unique<SlowToClose>(); });
            ++*calls;
            return Outcome::Renewed;
        }
    };
    renew::Renewer renewer;
    for (int round = 0; round < 3; ++round) {
        auto first = std::make_unique<OpensSlowToClose>();
        auto calls = first->calls;
        renew::Lease opener = renewer.start(std::move(first), 300ms);
        ASSERT_TRUE(eventually([&] { return calls->load() >= 1; }, 3000ms));
        opener.reset();  // the thread leaves, closing the slow connection
        std::this_thread::sleep_for(20ms);
        renew::Lease a, b;
        std::atomic<bool> a_done{false}, b_done{false};
        std::thread ta([&] {
            a = renewer.start(std::make_unique<Scripted>(), 3000ms);
            a_done = true;
        });
        std::thread tb([&] {
            b = renewer.start(std::make_unique<Scripted>(), 3000ms);
            b_done = true;
        });
        bool both = eventually([&] { return a_done && b_done; }, 2000ms);
        EXPECT_TRUE(both) << "round " << round << ": a start() waited for the new thread";
        if (!both) {  // unblock a start() stuck joining a running thread
            a_done ? a.reset() : b.reset();
        }
        ta.join();
        tb.join();
        a.reset();
        b.reset();
        EXPECT_TRUE(eventually([&] { return !renewer.stats().running; }, 3000ms));
    }
}

// A lease whose renewal does not come back in time (the server stalls, or the whole process
// was frozen) reports lost once its TTL has run out, without waiting for the thread; said once,
// it stays lost even if the late renewal then succeeds.
TEST(Renewer, ALeaseNotRenewedInTimeIsLostAtOnceAndForGood) {
    renew::Renewer renewer;
    auto r = std::make_unique<Slow>(1800ms);
    auto finished = r->finished;
    renew::Lease lease = renewer.start(std::move(r), 600ms);  // renewal at 200 ms takes 1.8 s
    EXPECT_FALSE(lease.lost());
    std::this_thread::sleep_for(200ms);
    EXPECT_FALSE(lease.lost()) << "still within its TTL";
    std::this_thread::sleep_for(600ms);  // 800 ms: the TTL ran out, the renewal is still on
    EXPECT_EQ(finished->load(), 0);
    EXPECT_TRUE(lease.lost());
    ASSERT_TRUE(eventually([&] { return finished->load() == 1; }, 3000ms));
    EXPECT_TRUE(eventually([&] { return renewer.stats().leases == 0; }, 2000ms))
        << "the renewer drops a lease said to be lost";
    EXPECT_TRUE(lease.lost());
}

// A thread held up past a lease's TTL (here by another lease's slow server) does not extend
// it late: the lock may have expired and been taken meanwhile.
TEST(Renewer, ARenewalDueAfterTheTtlRanOutIsNotSent) {
    renew::Renewer renewer;
    auto slow = std::make_unique<Slow>(1500ms);
    auto blocker_started = slow->started;
    renew::Lease blocker = renewer.start(std::move(slow), 600ms);  // busy from 200 to 1700 ms
    ASSERT_TRUE(eventually([&] { return blocker_started->load() == 1; }, 3000ms));
    auto quick = std::make_unique<Scripted>();
    auto calls = quick->calls;
    // Due 200 ms from now, trusted for 565 ms: both pass while the thread is busy.
    renew::Lease starved = renewer.start(std::move(quick), 600ms);
    ASSERT_TRUE(eventually([&] { return starved.lost(); }, 3000ms));
    std::this_thread::sleep_for(1700ms);  // the thread is free again
    EXPECT_EQ(calls->load(), 0);
    blocker.reset();
}

// A refresh by the holder pauses the renewals (and waits for one in flight); resume() goes on
// with the new TTL's renewal and interval, resume_after_unknown() with the old one at once.
TEST(Renewer, PauseHoldsRenewalsBackAndResumeTakesTheNewTtl) {
    renew::Renewer renewer;
    auto first = std::make_unique<Scripted>();
    auto first_calls = first->calls;
    renew::Lease lease = renewer.start(std::move(first), 600ms);
    ASSERT_TRUE(eventually([&] { return first_calls->load() >= 1; }, 3000ms));
    lease.pause();
    int paused_at = first_calls->load();
    std::this_thread::sleep_for(450ms);  // more than two intervals
    EXPECT_EQ(first_calls->load(), paused_at);
    auto second = std::make_unique<Scripted>();
    auto second_calls = second->calls;
    lease.resume(std::move(second), 3000ms, renew::Instant::now());
    std::this_thread::sleep_for(600ms);
    EXPECT_EQ(first_calls->load(), paused_at) << "the old renewal is gone";
    EXPECT_EQ(second_calls->load(), 0) << "the new TTL's first renewal comes at 1 s";
    EXPECT_FALSE(lease.lost()) << "the new TTL counts";
    EXPECT_TRUE(eventually([&] { return second_calls->load() >= 1; }, 2000ms));
    // A refresh to a longer TTL whose outcome is unknown: renewed at once (not 1 s later) at
    // the old, shorter TTL.
    lease.pause();
    int before = second_calls->load();
    lease.resume_after_unknown(nullptr, 3000ms, renew::Instant::now());
    EXPECT_TRUE(eventually([&] { return second_calls->load() > before; }, 500ms));
    EXPECT_FALSE(lease.lost());
    // To a shorter TTL: renewed at once, and from then on, at the shorter TTL (its renewal,
    // every 200 ms) and trusted for that long only.
    lease.pause();
    auto shorter = std::make_unique<Scripted>();
    auto shorter_calls = shorter->calls;
    const int second_before = second_calls->load();
    lease.resume_after_unknown(std::move(shorter), 600ms, renew::Instant::now());
    EXPECT_TRUE(eventually([&] { return shorter_calls->load() >= 3; }, 2000ms));
    EXPECT_EQ(second_calls->load(), second_before);
    EXPECT_FALSE(lease.lost());
    // For good: a later refresh that succeeds with a longer TTL does not lift the cap (the
    // unknown one may still run late), so renewals come at a third of 600 ms and a failing
    // one ends the trust after ~565 ms, not ~28 s.
    lease.pause();
    auto longer = std::make_unique<Scripted>();
    longer->answer->store(Outcome::Failed);
    auto longer_calls = longer->calls;
    lease.resume(std::move(longer), 30000ms, renew::Instant::now());
    EXPECT_TRUE(eventually([&] { return longer_calls->load() >= 1; }, 1000ms));
    EXPECT_TRUE(eventually([&] { return lease.lost(); }, 1500ms));
}

// A refresh to a shorter TTL whose outcome is unknown: the lock is trusted only that long from
// the refresh's send (a failing renewal then ends it at ~565 ms, not at the old ~2.85 s).
TEST(Renewer, AnUnknownRefreshToAShorterTtlShortensTheTrust) {
    renew::Renewer renewer;
    renew::Lease lease = renewer.start(std::make_unique<Scripted>(), 3000ms);
    lease.pause();
    auto shorter = std::make_unique<Scripted>();
    shorter->answer->store(Outcome::Failed);
    auto shorter_calls = shorter->calls;
    lease.resume_after_unknown(std::move(shorter), 600ms, renew::Instant::now());
    EXPECT_TRUE(eventually([&] { return shorter_calls->load() >= 1; }, 500ms)) << "at once";
    EXPECT_TRUE(eventually([&] { return lease.lost(); }, 1500ms));
}

// Under such a cap a failed renewal is retried at a tenth of the capped TTL, not of the lease's
// TTL (a later refresh to 30 s succeeded: its tenth would come after the trust ran out), so one
// transient failure is survived.
TEST(Renewer, UnderACapAFailedRenewalIsRetriedInTime) {
    struct FailsOnce : renew::Renewal {
        std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
        Outcome renew(renew::Connections &) override {
            return calls->fetch_add(1) == 0 ? Outcome::Failed : Outcome::Renewed;
        }
    };
    renew::Renewer renewer;
    renew::Lease lease = renewer.start(std::make_unique<Scripted>(), 3000ms);
    lease.pause();
    lease.resume_after_unknown(std::make_unique<Scripted>(), 600ms, renew::Instant::now());
    lease.pause();
    auto longer = std::make_unique<FailsOnce>();
    auto calls = longer->calls;
    lease.resume(std::move(longer), 30000ms, renew::Instant::now());
    EXPECT_TRUE(eventually([&] { return calls->load() >= 3; }, 2000ms));
    EXPECT_FALSE(lease.lost());
}

// A suspend in the middle of a renewal's round trip (the server ran it, then the host slept
// before the reply was read): the trust counts from the send on the boot clock, so the lease
// reads lost after the resume.
TEST(Renewer, ASuspendDuringARenewalIsCounted) {
    struct SuspendsMidRoundTrip : renew::Renewal {
        std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
        Outcome renew(renew::Connections &) override {
            // The skew first: the test waits for the count, then reads the lease.
            if (calls->load() == 0) renew::test_hooks::skew_boot_clock(10s);
            calls->fetch_add(1);
            return Outcome::Renewed;
        }
    };
    struct Unskew {
        std::shared_ptr<std::atomic<int>> calls;
        ~Unskew() {
            if (calls->load() > 0) renew::test_hooks::skew_boot_clock(-10s);
        }
    };
    renew::Renewer renewer;
    auto r = std::make_unique<SuspendsMidRoundTrip>();
    Unskew unskew{r->calls};
    renew::Lease lease = renewer.start(std::move(r), 3000ms);  // first renewal at 1 s
    ASSERT_TRUE(eventually([&] { return unskew.calls->load() >= 1; }, 3000ms));
    std::this_thread::sleep_for(50ms);
    EXPECT_TRUE(lease.lost()) << "renewed, but 10 s of suspend passed since it was sent";
}

// A host (or VM) suspended past a lease's TTL: the steady clock did not advance, the server's
// TTL ran on. The lease is not extended after the resume, and reads lost.
TEST(Renewer, ASuspendTheSteadyClockDidNotCountEndsTheLease) {
    struct Unskew {
        ~Unskew() { renew::test_hooks::skew_boot_clock(-5s); }
    };
    renew::Renewer renewer;
    auto r = std::make_unique<Scripted>();
    auto calls = r->calls;
    renew::Lease lease = renewer.start(std::move(r), 3000ms);  // first renewal at 1 s
    {
        renew::test_hooks::skew_boot_clock(5s);  // the host slept for 5 s
        Unskew unskew;
        std::this_thread::sleep_for(1500ms);
        EXPECT_EQ(calls->load(), 0) << "a lease past its TTL must not be extended";
        EXPECT_TRUE(lease.lost());
    }
    auto fresh = std::make_unique<Scripted>();
    renew::Lease after = renewer.start(std::move(fresh), 3000ms);
    EXPECT_FALSE(after.lost()) << "a lease started after the resume is trusted";
}

TEST(Renewer, RenewalTimeoutsAreBounded) {
    EXPECT_EQ(renew::bounded_timeout(0), renew::kLongestRenewalWait);  // 0: "no limit"
    EXPECT_EQ(renew::bounded_timeout(-1), renew::kLongestRenewalWait);
    EXPECT_EQ(renew::bounded_timeout(std::nan("")), renew::kLongestRenewalWait);
    EXPECT_EQ(renew::bounded_timeout(INFINITY), renew::kLongestRenewalWait);
    EXPECT_EQ(renew::bounded_timeout(1e9), renew::kLongestRenewalWait);
    EXPECT_EQ(renew::bounded_timeout(0.25), 0.25);
}

// A forked child neither renews the parent's leases nor stops them; it can start its own.
TEST(Renewer, AForkedChildHasNoneOfTheParentsLeases) {
    renew::Renewer renewer;
    auto r = std::make_unique<Scripted>();
    auto calls = r->calls;
    renew::Lease lease = renewer.start(std::move(r), 300ms);
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
        renew::Lease mine = renewer.start(std::move(own), 300ms);
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

TEST_F(RedisRenewal, KeepsATwoSecondKeyAliveAndStopsAtRelease) {
    renew::Renewer renewer;
    ASSERT_TRUE(redis::try_acquire(*conn_, key_, "mine", 2));
    renew::Lease lease = renewer.start(
        redis::make_renewal(redis::test_support::server(), key_, "mine", 2000), 2000ms);
    std::this_thread::sleep_for(4500ms);
    EXPECT_TRUE(redis::is_held(*conn_, key_, "mine")) << "renewed past its 2 s TTL";
    EXPECT_GE(lease.renewed(), 4u);
    EXPECT_EQ(renewer.stats().connections, 1u);
    lease.reset();
    EXPECT_TRUE(eventually([&] { return !renewer.stats().running; }, 2000ms));
    EXPECT_TRUE(eventually([&] { return !redis::is_held(*conn_, key_, "mine"); }, 3500ms))
        << "expires at its TTL once nobody renews it";
}

// A renewal the server runs late (its client gave up waiting) after a refresh to a longer
// TTL must not cut that TTL back.
TEST_F(RedisRenewal, ARenewalNeverShortensTheKey) {
    ASSERT_TRUE(redis::try_acquire(*conn_, key_, "mine", 60));
    EXPECT_TRUE(redis::extend_at_least(*conn_, key_, "mine", 2000));
    EXPECT_GT(redis::reply_integer(conn_->command({"PTTL", key_}).get()), 59000);
    EXPECT_TRUE(redis::extend_at_least(*conn_, key_, "mine", 120000));
    EXPECT_GT(redis::reply_integer(conn_->command({"PTTL", key_}).get()), 119000);
    EXPECT_FALSE(redis::extend_at_least(*conn_, key_, "theirs", 200000));
    EXPECT_LE(redis::reply_integer(conn_->command({"PTTL", key_}).get()), 120000);
}

TEST_F(RedisRenewal, AKeyTakenByAnotherIsMarkedLostAndNotExtended) {
    renew::Renewer renewer;
    ASSERT_TRUE(redis::try_acquire(*conn_, key_, "mine", 3));
    renew::Lease lease = renewer.start(
        redis::make_renewal(redis::test_support::server(), key_, "mine", 3000), 3000ms);
    conn_->command({"SET", key_, "theirs", "PX", "2500"});
    // Found by the renewal at 1 s (the lease alone would read lost only at ~2.85 s).
    ASSERT_TRUE(eventually([&] { return lease.lost(); }, 1800ms));
    auto pttl = redis::reply_integer(conn_->command({"PTTL", key_}).get());
    EXPECT_LE(pttl, 2500) << "their TTL is left alone";
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
                                          "shared_locks", name_, a.connection_id(), 3),
                      3000ms);
    ASSERT_TRUE(eventually([&] { return lease.renewed() >= 1; }, 3000ms));
    EXPECT_TRUE(pa.unlock(name_));  // the holder gives it up behind the renewer's back
    // Found by the next renewal, 1 s on (the lease alone would read lost only at ~2.85 s).
    EXPECT_TRUE(eventually([&] { return lease.lost(); }, 1800ms));
}

// A renewal the server runs late (its client gave up waiting) after a refresh to a longer
// TTL must not cut that TTL back.
TEST_F(MysqlRenewal, ARenewalNeverShortensTheRow) {
    mysql::NativeSession a(mysql_server()), r(mysql_server());
    mysql::Protocol pa(a, mysql::QuoteStyle::Default), pr(r, mysql::QuoteStyle::Default);
    pa.lock(name_, Deadline::after(0), 60);
    std::this_thread::sleep_for(2100ms);  // `created` is from an earlier second now
    EXPECT_TRUE(pr.extend_for(name_, a.connection_id(), 2));
    EXPECT_GE(pa.remaining_seconds(name_).value_or(0), 56);
    EXPECT_LE(pa.remaining_seconds(name_).value_or(0), 58) << "what was left, not a fresh 60 s";
    EXPECT_TRUE(pr.extend_for(name_, a.connection_id(), 120));
    EXPECT_GE(pa.remaining_seconds(name_).value_or(0), 118);
    EXPECT_TRUE(pr.extend_for(name_, a.connection_id(), 2));
    EXPECT_GE(pa.remaining_seconds(name_).value_or(0), 118);
    EXPECT_TRUE(pa.unlock(name_));
}

// Connection ids restart with the server: a session that got the holder's id and took the same
// name holds the lock under that id, but not the holder's identity lock. Its row is not renewed,
// and the holder's lease says lost. (Modelled here by the holder's session letting its identity
// go: a restart cannot be made to hand an id to a chosen session.)
TEST_F(MysqlRenewal, ARowHeldUnderTheHoldersIdButNotItsIdentityIsNotRenewed) {
    mysql::NativeSession a(mysql_server()), r(mysql_server());
    mysql::Protocol pa(a, mysql::QuoteStyle::Default), pr(r, mysql::QuoteStyle::Default);
    pa.lock(name_, Deadline::after(0), 60);
    const std::string identity = a.identity_lock();
    EXPECT_EQ(a.identity_lock(), identity) << "one identity per session";
    EXPECT_TRUE(pr.extend_for(name_, a.connection_id(), 60, identity));
    a.execute("SELECT RELEASE_LOCK(?)", {mysql::Param::str(identity)}, true, false);
    EXPECT_FALSE(pr.extend_for(name_, a.connection_id(), 60, identity));
    EXPECT_TRUE(pr.extend_for(name_, a.connection_id(), 60)) << "the id alone still matches";
    EXPECT_TRUE(pa.unlock(name_));
    // A new session of its own has an identity of its own.
    a.disconnect();
    EXPECT_THROW(a.identity_lock(), mysql::SessionLost) << "it never connects anew";
    a.ensure_connected();
    EXPECT_NE(a.identity_lock(), identity);
}

}  // namespace
}  // namespace nativelock
