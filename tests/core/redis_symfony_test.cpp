// Symfony Lock's RedisStore format (redis/symfony_format) against a real redis-server
// (tests/servers/redis.sh) on NATIVELOCK_REDIS_HOST/PORT. Without a server the tests skip, except
// in CI where they fail. The interop tests run the stock Symfony RedisStore (Debian
// php-symfony-lock, phpredis) with `php`; they skip where either is missing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "common/random.hpp"
#include "redis/connection.hpp"
#include "redis/lock.hpp"
#include "redis/symfony_format.hpp"
#include "redis_test_server.hpp"

using namespace nativelock;
using namespace nativelock::redis;
namespace sf = nativelock::redis::symfony;
using Clock = std::chrono::steady_clock;

namespace {

using test_support::in_ci;
using test_support::server;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

class SymfonyFormatTest : public test_support::RedisServerTest {
  protected:
    void SetUp() override { connect("symfony:core-test-"); }
    void TearDown() override {
        if (conn_) conn_->command({"DEL", key_, sf::queue_key(key_), sf::alive_key(key_)});
    }
    double score(const std::string &member) {
        Reply r = conn_->command({"ZSCORE", key_, member});
        return reply_is_nil(r.get()) ? -1 : std::stod(std::string(reply_string(r.get())));
    }
    long long server_ms() {
        Reply t = conn_->command({"TIME"});
        return std::stoll(std::string(reply_string(reply_element(t.get(), 0)))) * 1000 +
               std::stoll(std::string(reply_string(reply_element(t.get(), 1)))) / 1000;
    }
    long long pttl() { return reply_integer(conn_->command({"PTTL", key_}).get()); }
    long long queue_length() {
        return reply_integer(conn_->command({"ZCARD", sf::queue_key(key_)}).get());
    }
    void wait_for_queue(long long n) {
        for (int i = 0; i < 400 && queue_length() < n; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
};

// A waiter in a thread of its own: its connection, its outcome, when it got the lock; it holds
// for hold_s, then remove()s.
// Holds what it acquires for hold_s seconds, or until let_go() when that comes first.
struct ThreadWaiter {
    std::string token;
    WaitOutcome outcome = WaitOutcome::TimedOut;
    WaitStats stats;
    Clock::time_point got;
    std::atomic<bool> released_by_test{false};
    std::thread thread;
    ThreadWaiter(const std::string &key, std::string t, bool shared, double budget,
                 double hold_s = 0)
        : token(std::move(t)) {
        thread = std::thread([this, key, shared, budget, hold_s] {
            Connection c(server());
            outcome = sf::acquire_waiting(c, server(), key, token, 20000, shared,
                                          Deadline::after(budget), nullptr, &stats);
            got = Clock::now();
            if (outcome == WaitOutcome::Acquired) {
                const auto until = got + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(hold_s));
                while (Clock::now() < until && !released_by_test.load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                sf::remove(c, key, token);
            }
        });
    }
    void let_go() { released_by_test.store(true); }
    ~ThreadWaiter() {
        if (thread.joinable()) thread.join();
    }
};

}  // namespace

TEST_F(SymfonyFormatTest, ScriptDigestsMatchTheServer) {
    for (const Script *s :
         {&sf::kSaveScript, &sf::kSaveReadScript, &sf::kPutOffScript, &sf::kExtendScript,
          &sf::kDeleteScript, &sf::kExistsScript, &sf::kRemainingScript, &sf::kWriterScript,
          &sf::kForceRemoveScript, &sf::kQueuedAcquireScript, &sf::kLeaveQueueScript}) {
        Reply r = conn_->command({"SCRIPT", "LOAD", s->source});
        ASSERT_FALSE(reply_is_error(r.get())) << reply_string(r.get());
        EXPECT_EQ(reply_string(r.get()), s->sha1);
    }
}

TEST_F(SymfonyFormatTest, TtlRoundingIsSymfonys) {
    EXPECT_EQ(sf::ttl_ms_from_seconds(300.0), 300000);
    EXPECT_EQ(sf::ttl_ms_from_seconds(1.5), 1500);
    EXPECT_EQ(sf::ttl_ms_from_seconds(0.0001), 1);
    EXPECT_EQ(sf::ttl_ms_from_seconds(0.0011), 2);
    EXPECT_THROW(sf::ttl_ms_from_seconds(0), InvalidArgument);
    EXPECT_THROW(sf::ttl_ms_from_seconds(-1), InvalidArgument);
    EXPECT_THROW(sf::ttl_ms_from_seconds(std::nan("")), InvalidArgument);
    EXPECT_THROW(sf::ttl_ms_from_seconds(1e12), InvalidArgument);
    EXPECT_THROW(sf::save(*conn_, key_, "t", 0), InvalidArgument);
    EXPECT_THROW(sf::save_read(*conn_, key_, "t", -1), InvalidArgument);
    EXPECT_THROW(sf::put_off_expiration(*conn_, key_, "t", sf::kMaxTtlMs + 1), InvalidArgument);
    EXPECT_TRUE(sf::save(*conn_, key_, "t", sf::kMaxTtlMs));
}

// The layout: tokens scored by expiry (server ms), "__write__" scored like the writer, the key
// expiring at the latest score.
TEST_F(SymfonyFormatTest, SaveWritesSymfonysLayoutAndExcludes) {
    const long long before = server_ms();
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 30000));
    EXPECT_EQ(reply_string(conn_->command({"TYPE", key_}).get()), "zset");
    EXPECT_NEAR(score("a"), before + 30000, 200);
    EXPECT_EQ(score("a"), score("__write__"));
    EXPECT_EQ(reply_integer(conn_->command({"ZCARD", key_}).get()), 2);
    EXPECT_GT(pttl(), 29000);
    EXPECT_FALSE(sf::save(*conn_, key_, "b", 30000));
    EXPECT_FALSE(sf::save_read(*conn_, key_, "b", 30000));
    EXPECT_TRUE(sf::exists(*conn_, key_, "a"));
    EXPECT_FALSE(sf::exists(*conn_, key_, "b"));
    EXPECT_EQ(sf::writer(*conn_, key_), std::optional<std::string>("a"));
    // Saving again extends.
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 60000));
    EXPECT_GT(pttl(), 59000);
    EXPECT_EQ(score("a"), score("__write__"));
}

TEST_F(SymfonyFormatTest, ReadersShareAndExcludeWriters) {
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r1", 30000));
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r2", 60000));
    EXPECT_LT(score("__write__"), 0);
    EXPECT_GT(pttl(), 59000);  // the latest reader's expiry
    EXPECT_FALSE(sf::save(*conn_, key_, "w", 30000));
    EXPECT_FALSE(sf::writer(*conn_, key_).has_value());
    // r1 cannot be promoted while r2 reads.
    EXPECT_FALSE(sf::save(*conn_, key_, "r1", 30000));
    EXPECT_TRUE(sf::remove(*conn_, key_, "r2"));
    EXPECT_LT(pttl(), 31000);  // back to r1's expiry
    // Promotion: the only reader becomes the writer.
    ASSERT_TRUE(sf::save(*conn_, key_, "r1", 30000));
    EXPECT_EQ(sf::writer(*conn_, key_), std::optional<std::string>("r1"));
    EXPECT_FALSE(sf::save_read(*conn_, key_, "r3", 30000));
    // Demotion: the writer asks to read; others may read again.
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r1", 30000));
    EXPECT_LT(score("__write__"), 0);
    EXPECT_TRUE(sf::save_read(*conn_, key_, "r3", 30000));
    EXPECT_TRUE(sf::exists(*conn_, key_, "r1"));
    EXPECT_TRUE(sf::exists(*conn_, key_, "r3"));
}

TEST_F(SymfonyFormatTest, ExpiredTokensAreDropped) {
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 60));
    EXPECT_TRUE(sf::remaining_ms(*conn_, key_, "a").has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    EXPECT_FALSE(sf::exists(*conn_, key_, "a"));
    EXPECT_FALSE(sf::remaining_ms(*conn_, key_, "a").has_value());
    EXPECT_FALSE(sf::put_off_expiration(*conn_, key_, "a", 1000));
    EXPECT_FALSE(sf::writer(*conn_, key_).has_value());
    // An expired writer beside a live reader is dropped by the next script (the key lives on).
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r", 30000));
    conn_->command({"ZADD", key_, std::to_string(server_ms() - 10), "w"});
    conn_->command({"ZADD", key_, std::to_string(server_ms() - 10), "__write__"});
    EXPECT_FALSE(sf::writer(*conn_, key_).has_value());
    EXPECT_TRUE(sf::save_read(*conn_, key_, "r2", 30000));
    EXPECT_LT(score("w"), 0);
}

TEST_F(SymfonyFormatTest, KeysOfTheOldStringFormatAreRefused) {
    conn_->command({"SET", key_, "old-token", "PX", "30000"});
    EXPECT_FALSE(sf::save(*conn_, key_, "a", 30000));
    EXPECT_FALSE(sf::save_read(*conn_, key_, "a", 30000));
    EXPECT_FALSE(sf::put_off_expiration(*conn_, key_, "a", 30000));
    EXPECT_FALSE(sf::remove(*conn_, key_, "a"));
    EXPECT_FALSE(sf::exists(*conn_, key_, "a"));
    EXPECT_FALSE(sf::remaining_ms(*conn_, key_, "a").has_value());
    EXPECT_FALSE(sf::writer(*conn_, key_).has_value());
    EXPECT_EQ(reply_string(conn_->command({"GET", key_}).get()), "old-token");
    // A queued wait on it times out (and leaves the queue).
    Connection wc(server());
    EXPECT_EQ(
        sf::acquire_waiting(wc, server(), key_, "a", 30000, false, Deadline::after(0.2), nullptr),
        WaitOutcome::TimedOut);
    EXPECT_EQ(queue_length(), 0);
    EXPECT_TRUE(sf::force_remove(*conn_, key_));
    EXPECT_FALSE(sf::force_remove(*conn_, key_));
    EXPECT_TRUE(sf::save(*conn_, key_, "a", 30000));
}

// The renewal's script extends like put_off_expiration() but never moves an expiry earlier
// (a renewal the server runs late must not cut back a refresh to a longer TTL).
TEST_F(SymfonyFormatTest, ExtendAtLeastNeverShortens) {
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 60000));
    EXPECT_TRUE(sf::extend_at_least(*conn_, key_, "a", 2000));
    EXPECT_GT(*sf::remaining_ms(*conn_, key_, "a"), 59000);
    EXPECT_GT(pttl(), 59000);
    EXPECT_EQ(score("a"), score("__write__"));
    EXPECT_TRUE(sf::extend_at_least(*conn_, key_, "a", 120000));
    EXPECT_GT(*sf::remaining_ms(*conn_, key_, "a"), 119000);
    EXPECT_GT(pttl(), 119000);
    EXPECT_EQ(score("a"), score("__write__"));
    EXPECT_FALSE(sf::extend_at_least(*conn_, key_, "b", 120000));
}

TEST_F(SymfonyFormatTest, PutOffExpirationAndRemaining) {
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 5000));
    auto left = sf::remaining_ms(*conn_, key_, "a");
    ASSERT_TRUE(left.has_value());
    EXPECT_GT(*left, 4000);
    EXPECT_LE(*left, 5000);
    EXPECT_TRUE(sf::put_off_expiration(*conn_, key_, "a", 60000));
    EXPECT_GT(*sf::remaining_ms(*conn_, key_, "a"), 59000);
    EXPECT_EQ(score("a"), score("__write__"));
    EXPECT_GT(pttl(), 59000);
    EXPECT_FALSE(sf::put_off_expiration(*conn_, key_, "b", 60000));
    EXPECT_FALSE(sf::remaining_ms(*conn_, key_, "b").has_value());
    // A reader's put-off leaves no writer marker.
    EXPECT_TRUE(sf::remove(*conn_, key_, "a"));
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r", 5000));
    EXPECT_TRUE(sf::put_off_expiration(*conn_, key_, "r", 60000));
    EXPECT_LT(score("__write__"), 0);
}

TEST_F(SymfonyFormatTest, RemoveOnlyOurToken) {
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 30000));
    EXPECT_FALSE(sf::remove(*conn_, key_, "b"));
    EXPECT_TRUE(sf::exists(*conn_, key_, "a"));
    EXPECT_TRUE(sf::remove(*conn_, key_, "a"));
    EXPECT_EQ(reply_integer(conn_->command({"EXISTS", key_}).get()), 0);
    EXPECT_FALSE(sf::remove(*conn_, key_, "a"));
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r1", 30000));
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r2", 30000));
    EXPECT_TRUE(sf::force_remove(*conn_, key_));
    EXPECT_FALSE(sf::exists(*conn_, key_, "r1"));
}

TEST_F(SymfonyFormatTest, ScriptsAreLoadedAfterScriptFlush) {
    conn_->command({"SCRIPT", "FLUSH"});
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 30000));
    EXPECT_TRUE(sf::put_off_expiration(*conn_, key_, "a", 30000));
    EXPECT_TRUE(sf::exists(*conn_, key_, "a"));
    EXPECT_TRUE(sf::remove(*conn_, key_, "a"));
}

TEST_F(SymfonyFormatTest, BinaryKeysAndTokens) {
    const std::string key = key_ + std::string("\0\xff|\n", 4);
    const std::string token("a\0|b", 4);
    ASSERT_TRUE(sf::save(*conn_, key, token, 30000));
    EXPECT_TRUE(sf::exists(*conn_, key, token));
    EXPECT_EQ(sf::writer(*conn_, key), std::optional<std::string>(token));
    EXPECT_TRUE(sf::remove(*conn_, key, token));
    // Queued and woken with such a token (the member "w|ttl|channel|token" keeps it intact).
    ASSERT_TRUE(sf::save(*conn_, key, "holder", 30000));
    ThreadWaiter waiter(key, token, false, 10);
    for (int i = 0;
         i < 400 && reply_integer(conn_->command({"ZCARD", sf::queue_key(key)}).get()) < 1; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_TRUE(sf::remove(*conn_, key, "holder"));
    waiter.thread.join();
    EXPECT_EQ(waiter.outcome, WaitOutcome::Acquired);
    EXPECT_GE(waiter.stats.notifications, 1);
    conn_->command({"DEL", key, sf::queue_key(key), sf::alive_key(key)});
}

// ---- interop with the stock Symfony RedisStore (PHP) ----

namespace {

const char *kStockHelper = R"PHP(<?php
require '/usr/share/php/Symfony/Component/Lock/autoload.php';
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Store\RedisStore;
[, $host, $port, $op, $resource, $token, $ttl] = $argv;
$redis = new \Redis();
$redis->connect($host, (int) $port);
$store = new RedisStore($redis, (float) $ttl);
$key = new Key($resource);
$key->setState(RedisStore::class, $token);
try {
    switch ($op) {
        case 'save': $store->save($key); echo 'ok'; break;
        case 'saveRead': $store->saveRead($key); echo 'ok'; break;
        case 'putOff': $store->putOffExpiration($key, (float) $ttl); echo 'ok'; break;
        case 'delete': $store->delete($key); echo 'ok'; break;
        case 'exists': echo $store->exists($key) ? 'true' : 'false'; break;
    }
} catch (\Symfony\Component\Lock\Exception\LockConflictedException $e) {
    echo 'conflict';
}
)PHP";

std::string shell_quote(const std::string &s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

class StockSymfony {
  public:
    StockSymfony() {
        if (access("/usr/share/php/Symfony/Component/Lock/Store/RedisStore.php", R_OK) != 0) return;
        path_ = "/tmp/nativelock-stock-symfony-" + std::to_string(getpid()) + ".php";
        std::ofstream(path_) << kStockHelper;
        // The system's PHP settings (phpredis), not a test run's.
        std::string probe = run_raw("-r " + shell_quote("echo class_exists('Redis') ? 1 : 0;"));
        usable_ = probe == "1";
    }
    ~StockSymfony() {
        if (!path_.empty()) unlink(path_.c_str());
    }
    bool usable() const { return usable_; }
    std::string run(const std::string &op, const std::string &key, const std::string &token,
                    double ttl_s = 30) {
        const ConnectionParams p = server();
        return run_raw(shell_quote(path_) + " " + shell_quote(p.host) + " " +
                       std::to_string(p.port) + " " + op + " " + shell_quote(key) + " " +
                       shell_quote(token) + " " + std::to_string(ttl_s));
    }

  private:
    static std::string run_raw(const std::string &args) {
        std::string cmd = "env -u PHP_INI_SCAN_DIR php " + args + " 2>&1";
        FILE *f = popen(cmd.c_str(), "r");
        if (!f) return "";
        std::string out;
        char buf[512];
        std::size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
        pclose(f);
        return out;
    }
    std::string path_;
    bool usable_ = false;
};

}  // namespace

TEST_F(SymfonyFormatTest, InteropWithTheStockStore) {
    StockSymfony stock;
    if (!stock.usable()) {
        if (in_ci()) FAIL() << "php, phpredis or php-symfony-lock missing in CI";
        GTEST_SKIP() << "php with phpredis and php-symfony-lock needed";
    }
    // Theirs excludes ours and ours theirs.
    ASSERT_EQ(stock.run("save", key_, "stock"), "ok");
    EXPECT_FALSE(sf::save(*conn_, key_, "ours", 30000));
    EXPECT_FALSE(sf::save_read(*conn_, key_, "ours", 30000));
    EXPECT_EQ(sf::writer(*conn_, key_), std::optional<std::string>("stock"));
    EXPECT_TRUE(sf::exists(*conn_, key_, "stock"));
    EXPECT_GT(*sf::remaining_ms(*conn_, key_, "stock"), 29000);
    ASSERT_EQ(stock.run("delete", key_, "stock"), "ok");
    ASSERT_TRUE(sf::save(*conn_, key_, "ours", 30000));
    EXPECT_EQ(stock.run("save", key_, "stock"), "conflict");
    EXPECT_EQ(stock.run("saveRead", key_, "stock"), "conflict");
    EXPECT_EQ(stock.run("exists", key_, "ours"), "true");
    EXPECT_EQ(stock.run("putOff", key_, "ours", 90), "ok");
    EXPECT_GT(*sf::remaining_ms(*conn_, key_, "ours"), 89000);
    EXPECT_EQ(score("ours"), score("__write__"));
    // Their save of our token extends our write lock; their saveRead demotes it.
    EXPECT_EQ(stock.run("save", key_, "ours", 50), "ok");
    EXPECT_EQ(stock.run("saveRead", key_, "ours", 50), "ok");
    EXPECT_FALSE(sf::writer(*conn_, key_).has_value());
    // Shared locks: theirs and ours read together; neither can write.
    EXPECT_EQ(stock.run("saveRead", key_, "stock"), "ok");
    ASSERT_TRUE(sf::save_read(*conn_, key_, "ours2", 30000));
    EXPECT_FALSE(sf::save(*conn_, key_, "ours", 30000));  // no promotion among 3 readers
    EXPECT_EQ(stock.run("save", key_, "stock"), "conflict");
    EXPECT_TRUE(sf::remove(*conn_, key_, "ours"));
    EXPECT_TRUE(sf::remove(*conn_, key_, "ours2"));
    EXPECT_EQ(stock.run("save", key_, "stock"), "ok");  // promoted: the only reader
    EXPECT_EQ(sf::writer(*conn_, key_), std::optional<std::string>("stock"));
    // Their delete of our token; ours of theirs.
    EXPECT_TRUE(sf::remove(*conn_, key_, "stock"));
    EXPECT_EQ(stock.run("exists", key_, "stock"), "false");
    ASSERT_TRUE(sf::save(*conn_, key_, "ours", 30000));
    EXPECT_EQ(stock.run("delete", key_, "ours"), "ok");
    EXPECT_FALSE(sf::exists(*conn_, key_, "ours"));
    // The old string format is refused by both.
    conn_->command({"SET", key_, "x"});
    EXPECT_EQ(stock.run("save", key_, "stock"), "conflict");
    EXPECT_FALSE(sf::save(*conn_, key_, "ours", 30000));
}

// A stock releaser does not publish: our queued waiter notices by its poll.
TEST_F(SymfonyFormatTest, WaiterNoticesAStockRelease) {
    StockSymfony stock;
    if (!stock.usable()) GTEST_SKIP() << "php with phpredis and php-symfony-lock needed";
    ASSERT_EQ(stock.run("save", key_, "stock"), "ok");
    ThreadWaiter waiter(key_, "ours", false, 10);
    wait_for_queue(1);
    ASSERT_EQ(stock.run("delete", key_, "stock"), "ok");
    const auto released = Clock::now();
    waiter.thread.join();
    EXPECT_EQ(waiter.outcome, WaitOutcome::Acquired);
    EXPECT_EQ(waiter.stats.notifications, 0);
    EXPECT_LT(std::chrono::duration<double>(waiter.got - released).count(), 0.5);
    // … and a stock client cannot take what a nativelock release hands to a waiter. The
    // waiter holds until the stock client has tried: a fixed hold raced PHP's start-up
    // under a loaded CI (ASan), and the stock save found the lock already given back.
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    ThreadWaiter second(key_, "second", false, 10, 30);
    wait_for_queue(1);
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder"));
    EXPECT_EQ(stock.run("save", key_, "stock"), "conflict");
    second.let_go();
    second.thread.join();
    EXPECT_EQ(second.outcome, WaitOutcome::Acquired);
}

// ---- the queued wait ----

TEST_F(SymfonyFormatTest, WaiterIsWokenOnRelease) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    ThreadWaiter waiter(key_, "waiter", false, 10);
    wait_for_queue(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // its poll backed off
    const auto released = Clock::now();
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder"));
    waiter.thread.join();
    EXPECT_EQ(waiter.outcome, WaitOutcome::Acquired);
    EXPECT_GE(waiter.stats.notifications, 1);
    EXPECT_LT(std::chrono::duration<double>(waiter.got - released).count(), 0.25);
    EXPECT_EQ(queue_length(), 0);
}

// Without anybody queued a release publishes nothing (and leaves no queue keys).
TEST_F(SymfonyFormatTest, UncontendedReleaseLeavesNoQueue) {
    ASSERT_TRUE(sf::save(*conn_, key_, "a", 30000));
    EXPECT_TRUE(sf::remove(*conn_, key_, "a"));
    EXPECT_EQ(
        reply_integer(conn_->command({"EXISTS", sf::queue_key(key_), sf::alive_key(key_)}).get()),
        0);
}

TEST_F(SymfonyFormatTest, WaiterWakesAtExpiry) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 400));
    const auto start = Clock::now();
    Connection wc(server());
    EXPECT_EQ(sf::acquire_waiting(wc, server(), key_, "waiter", 30000, false, Deadline::after(5),
                                  nullptr),
              WaitOutcome::Acquired);
    const double took = seconds_since(start);
    EXPECT_GE(took, 0.3);
    EXPECT_LT(took, 0.8);
}

TEST_F(SymfonyFormatTest, WritersAreServedInArrivalOrderAndNewcomersDoNotBarge) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    std::vector<std::unique_ptr<ThreadWaiter>> waiters;
    for (int i = 0; i < 4; ++i) {
        waiters.push_back(
            std::make_unique<ThreadWaiter>(key_, "w" + std::to_string(i), false, 20, 0.03));
        wait_for_queue(i + 1);
    }
    ASSERT_EQ(queue_length(), 4);
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder"));
    // Handed over inside the release: newcomers (ours or stock) find it taken.
    EXPECT_FALSE(sf::save(*conn_, key_, "newcomer", 30000));
    EXPECT_FALSE(sf::save_read(*conn_, key_, "newcomer", 30000));
    for (auto &w : waiters) w->thread.join();
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(waiters[i]->outcome, WaitOutcome::Acquired);
        if (i > 0) EXPECT_LT(waiters[i - 1]->got, waiters[i]->got) << "waiter " << i;
        EXPECT_GE(waiters[i]->stats.notifications, 1) << "waiter " << i;
    }
    EXPECT_EQ(queue_length(), 0);
}

// Readers together at the head proceed together; a reader queued behind a writer waits for it.
TEST_F(SymfonyFormatTest, QueuedReadersAtTheHeadProceedTogether) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    ThreadWaiter r1(key_, "r1", true, 20, 0.3);
    wait_for_queue(1);
    ThreadWaiter r2(key_, "r2", true, 20, 0.3);
    wait_for_queue(2);
    ThreadWaiter w3(key_, "w3", false, 20, 0.1);
    wait_for_queue(3);
    ThreadWaiter r4(key_, "r4", true, 20);
    wait_for_queue(4);
    const auto released = Clock::now();
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder"));
    r1.thread.join();
    r2.thread.join();
    w3.thread.join();
    r4.thread.join();
    for (auto *w : {&r1, &r2, &w3, &r4}) EXPECT_EQ(w->outcome, WaitOutcome::Acquired) << w->token;
    // Together: each before the other's 0.3 s hold could have ended.
    EXPECT_LT(std::chrono::duration<double>(r1.got - released).count(), 0.25);
    EXPECT_LT(std::chrono::duration<double>(r2.got - released).count(), 0.25);
    EXPECT_GE(std::chrono::duration<double>(w3.got - released).count(), 0.25);
    EXPECT_LT(w3.got, r4.got);
}

// A writer's demotion hands the lock to the readers queued behind it.
TEST_F(SymfonyFormatTest, DemotionWakesQueuedReaders) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    ThreadWaiter reader(key_, "reader", true, 10);
    wait_for_queue(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto demoted = Clock::now();
    ASSERT_TRUE(sf::save_read(*conn_, key_, "holder", 30000));
    reader.thread.join();
    EXPECT_EQ(reader.outcome, WaitOutcome::Acquired);
    EXPECT_GE(reader.stats.notifications, 1);
    EXPECT_LT(std::chrono::duration<double>(reader.got - demoted).count(), 0.25);
}

// A reader waiting to write is promoted once the other readers leave, even past queued writers;
// one that gives up keeps its read lock.
TEST_F(SymfonyFormatTest, PromotionWaitsForTheOtherReaders) {
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r1", 30000));
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r2", 30000));
    Connection wc(server());
    EXPECT_EQ(
        sf::acquire_waiting(wc, server(), key_, "r1", 30000, false, Deadline::after(0.2), nullptr),
        WaitOutcome::TimedOut);
    EXPECT_TRUE(sf::exists(*conn_, key_, "r1"));
    EXPECT_FALSE(sf::writer(*conn_, key_).has_value());
    EXPECT_EQ(queue_length(), 0);

    ThreadWaiter writer(key_, "w", false, 10);
    wait_for_queue(1);
    ThreadWaiter promote(key_, "r1", false, 10, 0.2);
    wait_for_queue(2);
    EXPECT_TRUE(sf::remove(*conn_, key_, "r2"));
    promote.thread.join();
    writer.thread.join();
    EXPECT_EQ(promote.outcome, WaitOutcome::Acquired);
    EXPECT_EQ(writer.outcome, WaitOutcome::Acquired);
    EXPECT_LT(promote.got, writer.got);
}

// A waiter that died in the queue costs at most its lease plus one claim window; one whose
// lease ran out is dropped at once.
TEST_F(SymfonyFormatTest, DeadWaitersDoNotBlockTheQueue) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    const std::string dead = "w|30000|nativelock:wake:nobody|dead-token";
    conn_->command({"ZADD", sf::queue_key(key_), "1", dead});
    conn_->command({"ZADD", sf::alive_key(key_), std::to_string(server_ms() + 60000), dead});
    ThreadWaiter live(key_, "live", false, 10);
    wait_for_queue(2);
    auto released = Clock::now();
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder"));  // handed to the dead one
    live.thread.join();
    double took = std::chrono::duration<double>(live.got - released).count();
    EXPECT_EQ(live.outcome, WaitOutcome::Acquired);
    EXPECT_GE(took, sf::kClaimWindowMs / 1000.0 * 0.8);
    EXPECT_LT(took, sf::kClaimWindowMs / 1000.0 + 1.0);
    EXPECT_LT(score("dead-token"), 0);

    ASSERT_TRUE(sf::save(*conn_, key_, "holder2", 30000));
    conn_->command({"ZADD", sf::queue_key(key_), "1", dead});
    conn_->command({"ZADD", sf::alive_key(key_), std::to_string(server_ms() + 300), dead});
    ThreadWaiter second(key_, "second", false, 10);
    wait_for_queue(2);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));  // the dead lease lapses
    released = Clock::now();
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder2"));
    second.thread.join();
    EXPECT_EQ(second.outcome, WaitOutcome::Acquired);
    EXPECT_LT(std::chrono::duration<double>(second.got - released).count(), 0.1);
}

// Interrupted: the place is kept (a release hands the lock to it, not to the one behind);
// waiting again claims it. Giving up instead passes a handed lock on.
TEST_F(SymfonyFormatTest, InterruptedWaitKeepsItsPlace) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    Connection wc(server());
    sf::AcquireWait wait(server(), key_, "first", 30000, false);
    const Deadline deadline = Deadline::after(10);
    // Interrupted once it is queued.
    auto queued = [&] { return queue_length() >= 1; };
    EXPECT_EQ(wait.wait(wc, deadline, queued), WaitOutcome::Interrupted);
    ASSERT_EQ(queue_length(), 1);
    ThreadWaiter second(key_, "second", false, 10);
    wait_for_queue(2);
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder"));
    EXPECT_EQ(sf::writer(*conn_, key_), std::optional<std::string>("first"));  // handed
    EXPECT_EQ(wait.wait(wc, deadline, nullptr), WaitOutcome::Acquired);
    EXPECT_GT(*sf::remaining_ms(*conn_, key_, "first"), 29000);  // claimed with its TTL
    EXPECT_TRUE(sf::remove(wc, key_, "first"));
    second.thread.join();
    EXPECT_EQ(second.outcome, WaitOutcome::Acquired);

    // Giving up after the hand-over passes it on.
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    sf::AcquireWait quitter(server(), key_, "quitter", 30000, false);
    EXPECT_EQ(quitter.wait(wc, deadline, queued), WaitOutcome::Interrupted);
    ASSERT_EQ(queue_length(), 1);
    ThreadWaiter next(key_, "next", false, 10);
    wait_for_queue(2);
    EXPECT_TRUE(sf::remove(*conn_, key_, "holder"));
    EXPECT_EQ(sf::writer(*conn_, key_), std::optional<std::string>("quitter"));
    quitter.leave_queue(wc);
    next.thread.join();
    EXPECT_EQ(next.outcome, WaitOutcome::Acquired);
    EXPECT_FALSE(sf::exists(*conn_, key_, "quitter"));
}

TEST_F(SymfonyFormatTest, TimeoutsZeroNegativeAndNever) {
    ASSERT_TRUE(sf::save(*conn_, key_, "holder", 30000));
    Connection wc(server());
    for (double t : {0.0, -1.0}) {
        WaitStats stats;
        auto start = Clock::now();
        EXPECT_EQ(sf::acquire_waiting(wc, server(), key_, "w", 30000, false, Deadline::after(t),
                                      nullptr, &stats),
                  WaitOutcome::TimedOut);
        EXPECT_EQ(stats.attempts, 1);  // the plain save() alone
        EXPECT_LT(seconds_since(start), 0.1);
        EXPECT_EQ(queue_length(), 0);
    }
    auto start = Clock::now();
    EXPECT_EQ(
        sf::acquire_waiting(wc, server(), key_, "w", 30000, false, Deadline::after(0.25), nullptr),
        WaitOutcome::TimedOut);
    EXPECT_GE(seconds_since(start), 0.24);
    EXPECT_LT(seconds_since(start), 0.6);
    EXPECT_EQ(queue_length(), 0);
    std::thread releaser([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        Connection other(server());
        sf::remove(other, key_, "holder");
    });
    EXPECT_EQ(
        sf::acquire_waiting(wc, server(), key_, "w", 30000, false, Deadline::never(), nullptr),
        WaitOutcome::Acquired);
    releaser.join();
    EXPECT_EQ(sf::writer(*conn_, key_), std::optional<std::string>("w"));
}

// force_remove() wakes the queue's head too.
TEST_F(SymfonyFormatTest, ForceRemoveHandsToTheQueue) {
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r1", 30000));
    ASSERT_TRUE(sf::save_read(*conn_, key_, "r2", 30000));
    ThreadWaiter waiter(key_, "w", false, 10);
    wait_for_queue(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto removed = Clock::now();
    EXPECT_TRUE(sf::force_remove(*conn_, key_));
    waiter.thread.join();
    EXPECT_EQ(waiter.outcome, WaitOutcome::Acquired);
    EXPECT_GE(waiter.stats.notifications, 1);
    EXPECT_LT(std::chrono::duration<double>(waiter.got - removed).count(), 0.25);
}
