// The RedisLock protocol against a real redis-server (tests/servers/redis.sh) on
// NATIVELOCK_REDIS_HOST/PORT. Without a server the tests skip, except in CI where they fail.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/random.hpp"
#include "redis/connection.hpp"
#include "redis/lock.hpp"
#include "redis/pool.hpp"
#include "redis_test_server.hpp"

using namespace nativelock;
using namespace nativelock::redis;
using Clock = std::chrono::steady_clock;

namespace {

using test_support::in_ci;
using test_support::server;

class RedisLockTest : public test_support::RedisServerTest {
  protected:
    void SetUp() override { connect("redislock:core-test-"); }
    void TearDown() override {
        if (conn_) conn_->command({"DEL", key_, queue_key(key_), alive_key(key_), fence_key(key_)});
    }
};

}  // namespace

TEST_F(RedisLockTest, ScriptDigestsMatchTheServer) {
    for (const Script *s :
         {&kReleaseScript, &kQueuedAcquireScript, &kLeaveQueueScript, &kRefreshScript,
          &kExtendScript, &kLifetimeScript, &kFencedAcquireScript}) {
        Reply r = conn_->command({"SCRIPT", "LOAD", s->source});
        ASSERT_FALSE(reply_is_error(r.get())) << reply_string(r.get());
        EXPECT_EQ(reply_string(r.get()), s->sha1);
    }
}

TEST_F(RedisLockTest, AcquireWritesTheOriginalsKeyValueAndTtl) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "v1", 20));
    Reply get = conn_->command({"GET", key_});
    EXPECT_EQ(reply_string(get.get()), "v1");
    Reply ttl = conn_->command({"TTL", key_});
    EXPECT_GE(reply_integer(ttl.get()), 19);
    EXPECT_LE(reply_integer(ttl.get()), 20);
    EXPECT_FALSE(try_acquire(*conn_, key_, "v2", 20));
}

TEST_F(RedisLockTest, ReleaseOnlyOwnValueAndWithoutWaitersDeletes) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "mine", 20));
    EXPECT_FALSE(release(*conn_, key_, "theirs"));
    EXPECT_TRUE(is_held(*conn_, key_, "mine"));
    EXPECT_TRUE(release(*conn_, key_, "mine"));
    EXPECT_TRUE(reply_is_nil(conn_->command({"GET", key_}).get()));
    EXPECT_FALSE(release(*conn_, key_, "mine"));
}

namespace {
// A waiter in a thread of its own: its connection, its outcome, when it got the lock.
struct ThreadWaiter {
    std::string value;
    WaitOutcome outcome = WaitOutcome::TimedOut;
    WaitStats stats;
    Clock::time_point got;
    std::thread thread;
    ThreadWaiter(const std::string &key, std::string v, double budget, double hold_s = 0)
        : value(std::move(v)) {
        thread = std::thread([this, key, budget, hold_s] {
            Connection c(server());
            outcome = acquire_waiting(c, server(), key, value, 20, Deadline::after(budget), nullptr,
                                      &stats);
            got = Clock::now();
            if (outcome == WaitOutcome::Acquired) {
                std::this_thread::sleep_for(std::chrono::duration<double>(hold_s));
                release(c, key, value);
            }
        });
    }
    ~ThreadWaiter() {
        if (thread.joinable()) thread.join();
    }
};

long long queue_length(Connection &c, const std::string &key) {
    return reply_integer(c.command({"ZCARD", queue_key(key)}).get());
}

void wait_for_queue(Connection &c, const std::string &key, long long n) {
    for (int i = 0; i < 400 && queue_length(c, key) < n; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// The wake channel a queue member names ("<ttl>|<channel>/<wait id>|<value>").
std::string member_channel(const std::string &member) {
    std::string channel = member.substr(member.find('|') + 1);
    channel = channel.substr(0, channel.find('|'));
    return channel.substr(0, channel.find('/'));
}

std::string only_member(Connection &observer, const std::string &key) {
    Reply members = observer.command({"ZRANGE", queue_key(key), "0", "-1"});
    if (reply_elements(members.get()) != 1) return "";
    return std::string(reply_string(reply_element(members.get(), 0)));
}

long long channel_subscribers(Connection &observer, const std::string &channel) {
    Reply r = observer.command({"PUBSUB", "NUMSUB", channel});
    return reply_integer(reply_element(r.get(), 1));
}

// PSUBSCRIBEs `listener` to `pattern` and waits for the server's confirmation.
void subscribe_pattern(Connection &listener, const std::string &pattern) {
    listener.send({"PSUBSCRIBE", pattern});
    for (;;) {
        Reply r = listener.buffered_reply();
        if (r) {
            if (reply_elements(r.get()) >= 1 &&
                reply_string(reply_element(r.get(), 0)) == "psubscribe")
                return;
            continue;
        }
        ASSERT_EQ(listener.read_some(2000), ReadResult::Data) << "no PSUBSCRIBE confirmation";
    }
}

// Subscribes `listener` to `channel` and waits until the server counts it.
void subscribe(Connection &listener, Connection &observer, const std::string &channel) {
    listener.send({"SUBSCRIBE", channel});
    for (int i = 0; i < 100 && channel_subscribers(observer, channel) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
}
}  // namespace

// A release hands the key to the waiter that came first, never frees it for a newcomer, and
// wakes that waiter alone.
TEST_F(RedisLockTest, ReleaseHandsTheKeyToTheOldestWaiterAndNewcomersDoNotBarge) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    ThreadWaiter first(key_, "first", 10, 0.2);
    wait_for_queue(*conn_, key_, 1);
    ThreadWaiter second(key_, "second", 10);
    wait_for_queue(*conn_, key_, 2);
    ASSERT_EQ(queue_length(*conn_, key_), 2);
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    // Handed over inside the release: the key is never free, a newcomer's SET NX fails.
    EXPECT_FALSE(try_acquire(*conn_, key_, "newcomer", 20));
    first.thread.join();
    second.thread.join();
    EXPECT_EQ(first.outcome, WaitOutcome::Acquired);
    EXPECT_EQ(second.outcome, WaitOutcome::Acquired);
    EXPECT_LT(first.got, second.got);
    EXPECT_GE(first.stats.notifications, 1);
    EXPECT_EQ(queue_length(*conn_, key_), 0);
}

// Five waiters queued one after the other get the lock in that order.
TEST_F(RedisLockTest, WaitersAreServedInArrivalOrder) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    std::vector<std::unique_ptr<ThreadWaiter>> waiters;
    for (int i = 0; i < 5; ++i) {
        waiters.push_back(std::make_unique<ThreadWaiter>(key_, "w" + std::to_string(i), 20, 0.02));
        wait_for_queue(*conn_, key_, i + 1);
    }
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    for (auto &w : waiters) w->thread.join();
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(waiters[i]->outcome, WaitOutcome::Acquired);
        if (i > 0) EXPECT_LT(waiters[i - 1]->got, waiters[i]->got) << "waiter " << i;
    }
}

// A waiter that died in the queue (its wake channel has no subscriber left) is skipped at no
// cost, in either member format; one that is still subscribed but never claims (stopped) costs
// at most one claim window once its place comes (a member without a wait id); one whose lease
// ran out is dropped without costing anything.
TEST_F(RedisLockTest, DeadWaitersDoNotBlockTheQueue) {
    // A member ahead of a live waiter, with its lease ending at `lease_until` (ms; a lease
    // that ran out is pruned when the live waiter queues); the time from the release to the
    // live waiter's grant must lie in [at_least, below).
    auto handed_within = [this](const std::string &member, const char *lease_until, double at_least,
                                double below) {
        const bool lapsed = std::string(lease_until) == "1";
        conn_->command({"DEL", key_});
        ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
        conn_->command({"ZADD", queue_key(key_), "1", member});
        conn_->command({"ZADD", alive_key(key_), lease_until, member});
        ThreadWaiter live(key_, "live", 10);
        wait_for_queue(*conn_, key_, lapsed ? 1 : 2);
        const auto released = Clock::now();
        EXPECT_TRUE(release(*conn_, key_, "holder"));
        live.thread.join();
        const double took = std::chrono::duration<double>(live.got - released).count();
        EXPECT_EQ(live.outcome, WaitOutcome::Acquired) << member;
        EXPECT_GE(took, at_least) << member;
        EXPECT_LT(took, below) << member;
    };
    const char *never = "99999999999999";
    const double window = kClaimWindowMs / 1000.0;
    // A pattern subscriber (a monitoring tool's) hears every wake channel; it must not make a
    // dead waiter look alive (PUBLISH's count would include it, PUBSUB NUMSUB does not).
    Connection pattern(server());
    subscribe_pattern(pattern, "nativelock:*");
    handed_within("20|nativelock:wake:nobody|dead-value", never, 0, 0.3);
    handed_within("20|nativelock:wake:nobody/0123abcd|dead-value", never, 0, 0.3);
    Connection stuck(server());
    subscribe(stuck, *conn_, "nativelock:wake:stuck");
    handed_within("20|nativelock:wake:stuck|stuck-value", never, window * 0.8, window + 1.0);
    // A lease that ran out: dropped by the next script, no cost.
    handed_within("20|nativelock:wake:stuck|dead-value", "1", 0, 0.3);
}

// Members no nativelock writes (a TTL of 0, with a leading zero, or too long; no value) are
// dropped by the hand-over, which goes on to the next waiter instead of failing halfway.
TEST_F(RedisLockTest, MalformedMembersAreDroppedByTheHandOver) {
    Connection listening(server());  // their channel has a subscriber: they are not skipped
    subscribe(listening, *conn_, "nativelock:wake:x");
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    int score = 1;
    for (const char *member : {"0|nativelock:wake:x/ab|v", "020|nativelock:wake:x/ab|v",
                               "12345678901|nativelock:wake:x|v", "20|nativelock:wake:x", "junk"}) {
        const std::string place = std::to_string(score++);
        conn_->command({"ZADD", queue_key(key_), place, member});
        conn_->command({"ZADD", alive_key(key_), "99999999999999", member});
    }
    ThreadWaiter live(key_, "live", 10);
    wait_for_queue(*conn_, key_, 6);
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    live.thread.join();
    EXPECT_EQ(live.outcome, WaitOutcome::Acquired);
    EXPECT_EQ(queue_length(*conn_, key_), 0);
}

// A releaser whose ACL refuses PUBSUB cannot tell a live waiter from a dead one: it hands over
// as before grants existed (a claim window, the value on the channel), and the waiter claims.
TEST_F(RedisLockTest, AReleaserRefusedPubsubHandsOverForAClaimWindow) {
    Reply acl = conn_->command(
        {"ACL", "SETUSER", "nl-core-no-pubsub", "on", ">secret", "~*", "&*", "+@all", "-pubsub"});
    if (reply_is_error(acl.get())) GTEST_SKIP() << "no ACL: " << reply_string(acl.get());
    struct DropUser {
        Connection &c;
        ~DropUser() { c.command({"ACL", "DELUSER", "nl-core-no-pubsub"}); }
    } drop_user{*conn_};
    ConnectionParams limited = server();
    limited.username = "nl-core-no-pubsub";
    limited.password = "secret";
    limited.has_password = true;
    Connection releaser(limited);
    ASSERT_TRUE(try_acquire(releaser, key_, "holder", 20));
    // The waiter is away (interrupted once queued): nothing claims the key behind our back.
    Connection wc(server());
    AcquireWait wait(server(), key_, "waiter", 20);
    auto queued = [this] { return queue_length(*conn_, key_) > 0; };
    ASSERT_EQ(wait.wait(wc, Deadline::after(10), queued), WaitOutcome::Interrupted);
    ASSERT_NE(only_member(*conn_, key_).find('/'), std::string::npos);
    EXPECT_TRUE(release(releaser, key_, "holder"));
    EXPECT_TRUE(is_held(*conn_, key_, "waiter"));
    EXPECT_LE(reply_integer(conn_->command({"PTTL", key_}).get()), kClaimWindowMs);
    EXPECT_EQ(wait.wait(wc, Deadline::after(10), nullptr), WaitOutcome::Acquired);
    EXPECT_GT(reply_integer(conn_->command({"PTTL", key_}).get()), 15000);
}

// A wait resumed with an interrupt already due (signals that come faster than PHP's handlers
// return) still sends its script before it honours the interrupt: it keeps its place, and it ends
// at its deadline instead of returning at once for as long as the signals come.
TEST_F(RedisLockTest, AWaitResumedWithAnInterruptDueStillEndsAtItsDeadline) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection wc(server());
    AcquireWait wait(server(), key_, "waiter", 20);
    const auto always = [] { return true; };
    const auto deadline = Deadline::after(0.3);
    const auto started = std::chrono::steady_clock::now();
    WaitOutcome outcome = WaitOutcome::Interrupted;
    while (outcome == WaitOutcome::Interrupted &&
           std::chrono::steady_clock::now() - started < std::chrono::seconds(5))
        outcome = wait.wait(wc, deadline, always);
    EXPECT_EQ(outcome, WaitOutcome::TimedOut);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
    EXPECT_EQ(queue_length(*conn_, key_), 0) << "the wait that timed out left its place";
    EXPECT_TRUE(release(*conn_, key_, "holder"));
}

// After an acquisition that had to wait, the process's next acquisition of that key joins the
// queue at once: no SET NX, which fails while others wait. One that then finds the key free is
// forgotten, so the acquisition after it tries SET NX first again.
TEST_F(RedisLockTest, AKeyThatMadeUsWaitIsQueuedForAtOnceNextTime) {
    Connection monitor(server());
    monitor.send({"MONITOR"});
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection wc(server());
    EXPECT_EQ(acquire_waiting(wc, server(), key_, "w1", 20, Deadline::after(0.2), nullptr),
              WaitOutcome::TimedOut);
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    EXPECT_EQ(acquire_waiting(wc, server(), key_, "w2", 20, Deadline::after(5), nullptr),
              WaitOutcome::Acquired);
    EXPECT_TRUE(release(wc, key_, "w2"));
    EXPECT_EQ(acquire_waiting(wc, server(), key_, "w3", 20, Deadline::after(5), nullptr),
              WaitOutcome::Acquired);
    EXPECT_TRUE(release(wc, key_, "w3"));
    conn_->command({"SET", key_ + ":end", "1"});  // the last line MONITOR must show
    std::map<std::string, int> set_nx;            // value → its SET NX commands
    for (bool done = false; !done;) {
        Reply line = monitor.buffered_reply();
        if (!line) {
            ASSERT_EQ(monitor.read_some(2000), ReadResult::Data) << "MONITOR went quiet";
            continue;
        }
        const std::string text(reply_string(line.get()));
        if (text.find(key_ + ":end") != std::string::npos) done = true;
        if (text.find("\"SET\" \"" + key_ + "\"") == std::string::npos) continue;
        if (text.find("\"NX\"") == std::string::npos) continue;
        for (const char *v : {"w1", "w2", "w3"})
            if (text.find(std::string("\"") + v + "\"") != std::string::npos) ++set_nx[v];
    }
    EXPECT_EQ(set_nx["w1"], 1);  // not known yet: tried first
    EXPECT_EQ(set_nx["w2"], 0);  // w1 had to wait: straight into the queue, which found it free
    EXPECT_EQ(set_nx["w3"], 1);  // forgotten: tried first again
}

// Not while another wait of the process for the key is under way (a signal handler's lock,
// during the wait it interrupted): its SET NX takes a key it finds free, where the queue would
// hand it to the suspended outer wait, for which the handler's lock would then wait.
TEST_F(RedisLockTest, ANestedWaitStillTriesFirst) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection wc(server());
    ASSERT_EQ(acquire_waiting(wc, server(), key_, "earlier", 20, Deadline::after(0.2), nullptr),
              WaitOutcome::TimedOut);  // the key made this process wait
    AcquireWait outer(server(), key_, "outer", 20);
    auto queued = [this] { return queue_length(*conn_, key_) > 0; };
    ASSERT_EQ(outer.wait(wc, Deadline::after(10), queued), WaitOutcome::Interrupted);
    conn_->command({"DEL", key_});  // freed without a hand-over (an expiry, an original client)
    Connection inner_conn(server());
    const auto started = Clock::now();
    EXPECT_EQ(acquire_waiting(inner_conn, server(), key_, "inner", 20, Deadline::after(2), nullptr),
              WaitOutcome::Acquired);
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - started).count(), 1.0);
    EXPECT_TRUE(is_held(*conn_, key_, "inner"));
    outer.leave_queue(wc);
}

// A waiter that gives up (deadline) leaves the queue; a key handed to it at that moment is
// its own (the final attempt), never stranded.
TEST_F(RedisLockTest, TimedOutWaiterLeavesTheQueue) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection waiter(server());
    EXPECT_EQ(acquire_waiting(waiter, server(), key_, "waiter", 20, Deadline::after(0.3), nullptr),
              WaitOutcome::TimedOut);
    EXPECT_EQ(queue_length(*conn_, key_), 0);
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    EXPECT_TRUE(reply_is_nil(conn_->command({"GET", key_}).get()));
}

// Giving up after an interrupt (a PHP handler threw) passes a key handed over meanwhile on.
TEST_F(RedisLockTest, LeavingTheQueuePassesAHandedKeyOn) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection wc(server());
    AcquireWait wait(server(), key_, "quitter", 20);
    int asked = 0;
    // Interrupted after it queued (the first question comes before the first attempt).
    EXPECT_EQ(wait.wait(wc, Deadline::after(10), [&] { return ++asked >= 3; }),
              WaitOutcome::Interrupted);
    ASSERT_EQ(queue_length(*conn_, key_), 1);
    ThreadWaiter next(key_, "next", 10);
    wait_for_queue(*conn_, key_, 2);
    EXPECT_TRUE(release(*conn_, key_, "holder"));  // handed to "quitter"
    EXPECT_TRUE(is_held(*conn_, key_, "quitter"));
    wait.leave_queue(wc);  // … who passes it on
    next.thread.join();
    EXPECT_EQ(next.outcome, WaitOutcome::Acquired);
}

// Fencing: every fenced acquisition INCRs the key's counter in the acquiring script; a failed
// attempt does not; the counter lives under "nativelock:fence:" + key and never expires.
TEST_F(RedisLockTest, FencedAcquireCountsOnlyAcquisitions) {
    EXPECT_EQ(fence_key("redislock:x"), "nativelock:fence:redislock:x");
    EXPECT_EQ(try_acquire_fenced(*conn_, key_, "a", 20), 1);
    EXPECT_EQ(try_acquire_fenced(*conn_, key_, "b", 20), 0);  // taken: no token
    EXPECT_TRUE(is_held(*conn_, key_, "a"));
    Reply ttl = conn_->command({"TTL", key_});
    EXPECT_GE(reply_integer(ttl.get()), 19);
    EXPECT_TRUE(release(*conn_, key_, "a"));
    EXPECT_EQ(try_acquire_fenced(*conn_, key_, "b", 20), 2);
    EXPECT_EQ(reply_string(conn_->command({"GET", fence_key(key_)}).get()), "2");
    EXPECT_EQ(reply_integer(conn_->command({"PTTL", fence_key(key_)}).get()), -1);
    // Unfenced acquisitions (original clients) leave the counter alone.
    EXPECT_TRUE(release(*conn_, key_, "b"));
    EXPECT_TRUE(try_acquire(*conn_, key_, "c", 20));
    EXPECT_TRUE(release(*conn_, key_, "c"));
    EXPECT_EQ(try_acquire_fenced(*conn_, key_, "d", 20), 3);
}

// A waiter that receives the key by hand-off gets a token greater than the releaser's, counted
// when it claims the key; so does a waiter that takes a key freed without a hand-off.
TEST_F(RedisLockTest, HandedOverKeyGetsAFreshGreaterToken) {
    const long long first = try_acquire_fenced(*conn_, key_, "holder", 20);
    ASSERT_GE(first, 1);
    long long handed = 0;
    WaitOutcome outcome = WaitOutcome::TimedOut;
    std::thread waiter([&] {
        Connection c(server());
        outcome = acquire_waiting(c, server(), key_, "waiter", 20, Deadline::after(10), nullptr,
                                  nullptr, &handed);
    });
    wait_for_queue(*conn_, key_, 1);
    EXPECT_TRUE(release(*conn_, key_, "holder"));  // handed to "waiter"
    waiter.join();
    ASSERT_EQ(outcome, WaitOutcome::Acquired);
    EXPECT_EQ(handed, first + 1);
    EXPECT_TRUE(is_held(*conn_, key_, "waiter"));
    // Freed by a plain DEL (an original client): the head takes it on its poll, fenced too.
    long long polled = 0;
    std::thread second([&] {
        Connection c(server());
        outcome = acquire_waiting(c, server(), key_, "second", 20, Deadline::after(10), nullptr,
                                  nullptr, &polled);
    });
    wait_for_queue(*conn_, key_, 1);
    conn_->command({"DEL", key_});
    second.join();
    ASSERT_EQ(outcome, WaitOutcome::Acquired);
    EXPECT_EQ(polled, handed + 1);
    // A wait that acquires at once counts as well.
    EXPECT_TRUE(release(*conn_, key_, "second"));
    long long direct = 0;
    Connection c(server());
    EXPECT_EQ(acquire_waiting(c, server(), key_, "third", 20, Deadline::after(1), nullptr, nullptr,
                              &direct),
              WaitOutcome::Acquired);
    EXPECT_EQ(direct, polled + 1);
}

// One subscriber connection per process and server, kept across waits.
TEST_F(RedisLockTest, WaitsShareOnePooledSubscriber) {
    SubscriberPool subscribers;
    Connection wc(server());
    for (int round = 0; round < 3; ++round) {
        ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
        std::thread releaser([this] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            Connection other(server());
            release(other, key_, "holder");
        });
        AcquireWait wait(server(), key_, "waiter", 20, &subscribers);
        EXPECT_EQ(wait.wait(wc, Deadline::after(10), nullptr), WaitOutcome::Acquired);
        releaser.join();
        EXPECT_TRUE(release(wc, key_, "waiter"));
    }
    EXPECT_EQ(subscribers.opened(), 1u);
}

TEST_F(RedisLockTest, ScriptsAreLoadedAfterScriptFlush) {
    conn_->command({"SCRIPT", "FLUSH"});
    ASSERT_TRUE(try_acquire(*conn_, key_, "v", 20));
    EXPECT_TRUE(refresh(*conn_, key_, "v", 50000));
    EXPECT_TRUE(release(*conn_, key_, "v"));
}

TEST_F(RedisLockTest, RefreshAndRemaining) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "v", 5));
    auto left = remaining_ms(*conn_, key_, "v");
    ASSERT_TRUE(left.has_value());
    EXPECT_GT(*left, 3000);
    EXPECT_LE(*left, 5000);
    EXPECT_TRUE(refresh(*conn_, key_, "v", 60000));
    EXPECT_GT(*remaining_ms(*conn_, key_, "v"), 55000);
    EXPECT_FALSE(refresh(*conn_, key_, "other", 60000));
    EXPECT_FALSE(remaining_ms(*conn_, key_, "other").has_value());
    conn_->command({"DEL", key_});
    EXPECT_FALSE(remaining_ms(*conn_, key_, "v").has_value());
    EXPECT_FALSE(refresh(*conn_, key_, "v", 1000));
}

TEST_F(RedisLockTest, InvalidTtlIsAServerError) {
    EXPECT_THROW(try_acquire(*conn_, key_, "v", 0), ProtocolError);
    EXPECT_THROW(try_acquire(*conn_, key_, "v", -5), ProtocolError);
}

TEST_F(RedisLockTest, BinaryKeysAndValues) {
    std::string key = key_ + std::string("\0\xff\n", 3);
    ASSERT_TRUE(try_acquire(*conn_, key, std::string("a\0b", 3), 5));
    EXPECT_TRUE(is_held(*conn_, key, std::string("a\0b", 3)));
    EXPECT_TRUE(release(*conn_, key, std::string("a\0b", 3)));
}

// Commands are formatted by Connection itself (RESP): empty, binary and large arguments, many
// arguments and pipelined commands reach the server intact.
TEST_F(RedisLockTest, CommandsOfAnyShapeReachTheServerIntact) {
    EXPECT_TRUE(reply_is_status(conn_->command({"SET", key_, ""}).get(), "OK"));
    EXPECT_EQ(reply_string(conn_->command({"GET", key_}).get()), "");
    std::string big(300000, '\0');
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 % 256);
    EXPECT_TRUE(reply_is_status(conn_->command({"SET", key_, big}).get(), "OK"));
    EXPECT_EQ(reply_string(conn_->command({"GET", key_}).get()), big);
    std::vector<std::string> items;
    for (int i = 0; i < 40; ++i) items.push_back(std::string(static_cast<std::size_t>(i), 'x'));
    const std::string list = queue_key(key_);
    std::vector<std::string_view> argv{"RPUSH", list};
    for (const auto &item : items) argv.push_back(item);
    EXPECT_EQ(reply_integer(conn_->command(argv).get()), 40);
    auto replies = conn_->pipeline({{"LLEN", list}, {"LINDEX", list, "39"}, {"DEL", list}});
    ASSERT_EQ(replies.size(), 3u);
    EXPECT_EQ(reply_integer(replies[0].get()), 40);
    EXPECT_EQ(reply_string(replies[1].get()), items[39]);
    EXPECT_EQ(reply_integer(replies[2].get()), 1);
}

TEST_F(RedisLockTest, WaiterWakesOnRelease) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    std::thread releaser([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        Connection other(server());
        release(other, key_, "holder");
    });
    Connection waiter(server());
    WaitStats stats;
    auto start = Clock::now();
    bool got = acquire_waiting(waiter, server(), key_, "waiter", 20, Deadline::after(10), nullptr,
                               &stats) == WaitOutcome::Acquired;
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    releaser.join();
    EXPECT_TRUE(got);
    EXPECT_GE(stats.notifications, 1);
    EXPECT_LT(waited, 5.0);
    EXPECT_TRUE(is_held(*conn_, key_, "waiter"));
}

TEST_F(RedisLockTest, WaiterNoticesAReleaseThatDoesNotPublish) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    std::thread releaser([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        Connection other(server());
        other.command({"DEL", key_});  // like the original gist: no PUBLISH
    });
    Connection waiter(server());
    WaitStats stats;
    bool got = acquire_waiting(waiter, server(), key_, "waiter", 20, Deadline::after(10), nullptr,
                               &stats) == WaitOutcome::Acquired;
    releaser.join();
    EXPECT_TRUE(got);
    EXPECT_EQ(stats.notifications, 0);
}

TEST_F(RedisLockTest, WaiterRetriesAtExpiry) {
    conn_->command({"SET", key_, "holder", "PX", "400"});
    Connection waiter(server());
    auto start = Clock::now();
    EXPECT_EQ(acquire_waiting(waiter, server(), key_, "waiter", 20, Deadline::after(10), nullptr),
              WaitOutcome::Acquired);
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_GE(waited, 0.3);
    EXPECT_LT(waited, 3.0);
}

TEST_F(RedisLockTest, WaiterGivesUpAtTheDeadline) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection waiter(server());
    auto start = Clock::now();
    EXPECT_EQ(acquire_waiting(waiter, server(), key_, "waiter", 20, Deadline::after(0.5), nullptr),
              WaitOutcome::TimedOut);
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_GE(waited, 0.5);
    EXPECT_LT(waited, 3.0);
}

TEST_F(RedisLockTest, InterruptEndsTheWait) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection waiter(server());
    int calls = 0;
    EXPECT_EQ(acquire_waiting(waiter, server(), key_, "waiter", 20, Deadline::after(10),
                              [&] { return ++calls >= 2; }),
              WaitOutcome::Interrupted);
    EXPECT_GE(calls, 2);
}

// A signal every 20 ms during the wait: poll() returns EINTR each time. The wait reports
// Interrupted only when asked to; otherwise it goes on to the deadline, neither shorter nor
// restarted, and a resumed wait keeps the same deadline.
namespace {
void on_alarm(int) {}
struct SignalStorm {
    SignalStorm() {
        struct sigaction sa {};
        sa.sa_handler = on_alarm;
        sa.sa_flags = SA_RESTART;  // as pcntl_signal() installs them
        sigaction(SIGALRM, &sa, &old_);
        itimerval every{{0, 20000}, {0, 20000}};
        setitimer(ITIMER_REAL, &every, nullptr);
    }
    ~SignalStorm() {
        itimerval off{};
        setitimer(ITIMER_REAL, &off, nullptr);
        sigaction(SIGALRM, &old_, nullptr);
    }
    struct sigaction old_ {};
};
}  // namespace

TEST_F(RedisLockTest, SignalsDoNotShortenTheWait) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection waiter(server());
    SignalStorm storm;
    auto start = Clock::now();
    EXPECT_EQ(acquire_waiting(waiter, server(), key_, "waiter", 20, Deadline::after(1.0), nullptr),
              WaitOutcome::TimedOut);
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_GE(waited, 1.0);
    EXPECT_LT(waited, 4.0);
}

TEST_F(RedisLockTest, ResumedWaitKeepsItsDeadlineAndAcquiresOnRelease) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    std::thread releaser([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        Connection other(server());
        release(other, key_, "holder");
    });
    Connection waiter(server());
    AcquireWait wait(server(), key_, "waiter", 20);
    auto deadline = Deadline::after(10);
    int interrupts = 0;
    bool pending = false;
    SignalStorm storm;
    auto start = Clock::now();
    WaitOutcome outcome;
    // The storm's handler does not set `pending`; a flag raised every 50 ms stands in for it.
    auto next_flag = Clock::now();
    auto ask = [&] {
        if (Clock::now() >= next_flag) {
            next_flag = Clock::now() + std::chrono::milliseconds(50);
            pending = true;
        }
        return pending;
    };
    while ((outcome = wait.wait(waiter, deadline, ask)) == WaitOutcome::Interrupted) {
        ++interrupts;
        pending = false;
    }
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    releaser.join();
    EXPECT_EQ(outcome, WaitOutcome::Acquired);
    EXPECT_GE(interrupts, 3);
    EXPECT_GE(waited, 0.5);
    EXPECT_LT(waited, 5.0);
    EXPECT_TRUE(is_held(*conn_, key_, "waiter"));
}

TEST(RedisConnectionSignals, ConnectAndCommandsSurviveASignalStorm) {
    SignalStorm storm;
    for (int i = 0; i < 20; ++i) {
        ConnectionParams p = server();
        try {
            Connection c(p);
            for (int j = 0; j < 20; ++j) {
                ASSERT_TRUE(reply_is_status(c.command({"PING"}).get(), "PONG"));
            }
            // A server-side wait longer than several signal periods (BLPOP 0.2 s on a missing
            // key): the reply still arrives.
            Reply r = c.command({"BLPOP", "nativelock:core-test:never", "0.2"});
            ASSERT_TRUE(reply_is_nil(r.get()) || reply_elements(r.get()) == 0);
        } catch (const ConnectionError &e) {
            if (std::string(e.what()).find("cannot connect") != std::string::npos &&
                std::string(e.what()).find("Interrupted") == std::string::npos && !in_ci()) {
                GTEST_SKIP() << e.what();
            }
            FAIL() << e.what();
        }
    }
}

// The reply is read by a blocking read() bounded by SO_RCVTIMEO: a reply that does not come
// (BLPOP on a missing key, longer than the read timeout) ends with the timeout error, neither
// earlier nor much later, and breaks the connection.
TEST_F(RedisLockTest, ReadTimeoutEndsAReplyThatDoesNotCome) {
    ConnectionParams p = server();
    p.read_timeout = 0.3;
    Connection c(p);
    auto start = Clock::now();
    try {
        c.command({"BLPOP", "nativelock:core-test:never", "3"});
        FAIL() << "BLPOP 3 answered within a 0.3 s read timeout";
    } catch (const ConnectionError &e) {
        EXPECT_NE(std::string(e.what()).find("no reply within the read timeout (0.300000 s)"),
                  std::string::npos)
            << e.what();
    }
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_GE(waited, 0.3);
    EXPECT_LT(waited, 1.5);
    EXPECT_FALSE(c.healthy());
}

// The same under a signal every 20 ms (SA_RESTART, as pcntl installs them): a socket read with
// a timeout is interrupted (EINTR) rather than restarted, and the rest of the wait keeps the
// deadline: not cut short, not extended by each signal.
TEST_F(RedisLockTest, ReadTimeoutKeepsItsDeadlineAcrossSignals) {
    ConnectionParams p = server();
    p.read_timeout = 0.5;
    Connection c(p);
    SignalStorm storm;
    auto start = Clock::now();
    EXPECT_THROW(c.command({"BLPOP", "nativelock:core-test:never", "3"}), ConnectionError);
    double waited = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_GE(waited, 0.5);
    EXPECT_LT(waited, 1.5);
}

// A changed read timeout applies to the next command: shorter, then longer again.
TEST_F(RedisLockTest, ChangedReadTimeoutApplies) {
    Connection c(server());  // 5 s
    c.set_read_timeout(0.2);
    auto start = Clock::now();
    EXPECT_THROW(c.command({"BLPOP", "nativelock:core-test:never", "3"}), ConnectionError);
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 1.5);
    Connection d(server());
    d.set_read_timeout(0.2);
    d.set_read_timeout(2);
    Reply r = d.command({"BLPOP", "nativelock:core-test:never", "0.5"});
    EXPECT_TRUE(reply_is_nil(r.get()) || reply_elements(r.get()) == 0);
}

TEST_F(RedisLockTest, PoolReusesAndReplacesClosedConnections) {
    Pool pool;
    Connection &a = pool.get(server());
    Connection &b = pool.get(server());
    EXPECT_EQ(&a, &b);
    EXPECT_EQ(pool.opened(), 1u);
    // The server closes the connection (CLIENT KILL): the pool notices without a round trip.
    Reply id = a.command({"CLIENT", "ID"});
    EXPECT_TRUE(a.reusable_for_next_command());  // it has just answered
    std::string client_id = std::to_string(reply_integer(id.get()));
    conn_->command({"CLIENT", "KILL", "ID", client_id});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(a.reusable());
    EXPECT_FALSE(a.reusable_for_next_command());  // its last reply is older than the window
    Connection &c = pool.get(server());
    EXPECT_EQ(pool.opened(), 2u);
    Reply pong = c.command({"PING"});
    EXPECT_TRUE(reply_is_status(pong.get(), "PONG"));
}

TEST_F(RedisLockTest, ForkedChildDropsInheritedConnectionSilently) {
    Pool pool;
    Connection &a = pool.get(server());
    ASSERT_TRUE(reply_is_status(a.command({"PING"}).get(), "PONG"));
    long long parent_id = reply_integer(a.command({"CLIENT", "ID"}).get());
    pid_t pid = fork();
    if (pid == 0) {
        int code = 0;
        try {
            if (a.reusable()) code = 1;  // another pid: must not be reused
            Connection &c = pool.get(server());
            if (reply_integer(c.command({"CLIENT", "ID"}).get()) == parent_id) code = 2;
        } catch (...) {
            code = 4;
        }
        _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    // The parent's connection is intact: nothing was sent or closed on it by the child.
    EXPECT_TRUE(a.reusable());
    EXPECT_TRUE(reply_is_status(a.command({"PING"}).get(), "PONG"));
}

TEST(RedisConnection, RefusedNamesHostAndPort) {
    ConnectionParams p;
    p.host = "127.0.0.1";
    p.port = 1;
    p.connect_timeout = 1;
    try {
        Connection c(p);
        FAIL() << "connected to port 1";
    } catch (const ConnectionError &e) {
        EXPECT_NE(std::string(e.what()).find("127.0.0.1:1"), std::string::npos) << e.what();
    }
}

// ---- idle connections (issue 14) ----------------------------------------------------------
// Times are passed to the pools: "an hour later" needs no waiting, and nothing depends on the
// machine's speed. What counts is seen from the server: the connection is gone from CLIENT LIST.

namespace {

using namespace std::chrono_literals;

long long client_id(Connection &c) {
    return reply_integer(c.command({"CLIENT", "ID"}).get());
}

bool client_listed(Connection &observer, long long id) {
    Reply list = observer.command({"CLIENT", "LIST"});
    std::string needle = "id=" + std::to_string(id) + " ";
    std::string_view text = reply_string(list.get());
    return text.substr(0, needle.size()) == needle ||
           text.find("\n" + needle) != std::string_view::npos;
}

// The server notices a closed socket on its next event-loop turn: allow it a generous moment.
bool client_gone(Connection &observer, long long id) {
    for (int i = 0; i < 500 && client_listed(observer, id); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return !client_listed(observer, id);
}

}  // namespace

TEST_F(RedisLockTest, PoolClosesConnectionsIdlePastTheTimeoutOnAccessAndAtRequestEnd) {
    Pool pool;
    pool.set_idle_timeout(30s);
    ConnectionParams db0 = server();
    ConnectionParams db1 = server();
    db1.database = 1;  // another pool key on the same server
    const auto t0 = Pool::Clock::now();
    long long id0 = client_id(pool.get(db0, t0));
    long long id1 = client_id(pool.get(db1, t0 + 20s));
    EXPECT_EQ(pool.size(), 2u);  // db0 was idle 20 s then: kept
    // 40 s in, db0 stood unused past the timeout: the next access (to db1) closes it.
    Connection &again = pool.get(db1, t0 + 40s);
    EXPECT_EQ(client_id(again), id1);
    EXPECT_EQ(pool.size(), 1u);
    EXPECT_EQ(pool.closed_idle(), 1u);
    EXPECT_TRUE(client_gone(*conn_, id0));
    EXPECT_TRUE(client_listed(*conn_, id1));
    // At request end, db1 (last used 40 s in) is closed once it too stood unused for 30 s.
    EXPECT_EQ(pool.close_idle(t0 + 60s), 0u);
    EXPECT_EQ(pool.close_idle(t0 + 71s), 1u);
    EXPECT_EQ(pool.size(), 0u);
    EXPECT_EQ(pool.opened(), 2u);
    EXPECT_EQ(pool.closed_idle(), 2u);
    EXPECT_TRUE(client_gone(*conn_, id1));
    // The next use opens a new connection.
    EXPECT_NE(client_id(pool.get(db0)), id0);
    EXPECT_EQ(pool.opened(), 3u);
}

TEST_F(RedisLockTest, PoolKeepsAConnectionPinnedByAHeldLockHoweverLongItIdles) {
    Pool pool;
    pool.set_idle_timeout(1s);
    Connection &held_on = pool.get(server());
    long long id = client_id(held_on);
    ConnectionParams other = server();
    other.database = 1;
    {
        Pool::Pin held = pool.pin(server());
        EXPECT_EQ(pool.close_idle(Pool::Clock::now() + 1h), 0u);
        pool.get(other, Pool::Clock::now() + 1h);  // the sweep on access spares it too
        EXPECT_EQ(pool.size(), 2u);
        EXPECT_TRUE(reply_is_status(held_on.command({"PING"}).get(), "PONG"));
    }
    // Released: idle from now on like any other.
    EXPECT_EQ(pool.close_idle(Pool::Clock::now() + 2h), 2u);
    EXPECT_TRUE(client_gone(*conn_, id));
}

TEST_F(RedisLockTest, AWaitKeepsItsSubscriberOpenUntilItEnds) {
    SubscriberPool subscribers;
    subscribers.set_idle_timeout(1s);
    Connection wc(server());
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    std::string channel;
    {
        AcquireWait wait(server(), key_, "waiter", 20, &subscribers);
        const auto deadline = Deadline::after(10);
        // Interrupted once queued (a pending signal handler): the wait is in progress, as when
        // a handler's own lock() sweeps the pools.
        auto queued = [this] { return queue_length(*conn_, key_) > 0; };
        ASSERT_EQ(wait.wait(wc, deadline, queued), WaitOutcome::Interrupted);
        Reply members = conn_->command({"ZRANGE", queue_key(key_), "0", "-1"});
        ASSERT_EQ(reply_elements(members.get()), 1u);
        std::string member(reply_string(reply_element(members.get(), 0)));
        channel = member_channel(member);
        ASSERT_EQ(channel_subscribers(*conn_, channel), 1);

        EXPECT_EQ(subscribers.close_idle(SubscriberPool::Clock::now() + 1h), 0u);
        EXPECT_EQ(subscribers.size(), 1u);
        EXPECT_EQ(channel_subscribers(*conn_, channel), 1);
        // The wait goes on with the same subscriber (none is opened again) and is handed the
        // lock.
        EXPECT_TRUE(release(*conn_, key_, "holder"));
        EXPECT_EQ(wait.wait(wc, deadline, nullptr), WaitOutcome::Acquired);
        EXPECT_EQ(subscribers.opened(), 1u);
        EXPECT_TRUE(release(wc, key_, "waiter"));
    }
    // The wait is over: its subscriber idles like any other connection.
    EXPECT_EQ(subscribers.close_idle(SubscriberPool::Clock::now() + 1h), 1u);
    EXPECT_EQ(subscribers.closed_idle(), 1u);
    for (int i = 0; i < 500 && channel_subscribers(*conn_, channel) > 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(channel_subscribers(*conn_, channel), 0);
}

// A hand-over grants the queue's head the key for its whole TTL and tells it on its wake
// channel: the head holds the lock without another call on its command connection (here
// killed before the release, so any call would fail). A member ahead whose wake channel has no
// subscriber (its process is gone) is skipped at no cost, even with a pattern subscriber
// (monitoring) listening to every wake channel.
TEST_F(RedisLockTest, AGrantedWaiterHoldsTheKeyWithoutAnotherCall) {
    Connection monitor(server());
    monitor.send({"PSUBSCRIBE", "nativelock:*"});
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    const std::string dead = "20|nativelock:wake:nobody/0123abcd|dead-value";
    conn_->command({"ZADD", queue_key(key_), "1", dead});
    conn_->command({"ZADD", alive_key(key_), "99999999999999", dead});
    Connection wc(server());
    const long long wc_id = reply_integer(wc.command({"CLIENT", "ID"}).get());
    AcquireWait wait(server(), key_, "waiter", 30);
    auto queued = [this] { return queue_length(*conn_, key_) > 1; };
    ASSERT_EQ(wait.wait(wc, Deadline::after(10), queued), WaitOutcome::Interrupted);

    // Resumed, the wait renews its place (second in line), then sleeps up to kQueuedPollMs;
    // once the renewal is seen (its lease moved), its command connection is killed and the
    // holder releases.
    const std::string member = [&] {
        Reply m = conn_->command({"ZRANGE", queue_key(key_), "1", "1"});
        return std::string(reply_string(reply_element(m.get(), 0)));
    }();
    auto lease = [this, member] {
        Reply r = conn_->command({"ZSCORE", alive_key(key_), member});
        return std::string(reply_string(r.get()));
    };
    const std::string lease_before = lease();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the renewal gets a later score
    std::thread others([&] {
        Connection c(server());
        auto lease_of = [&] {
            Reply r = c.command({"ZSCORE", alive_key(key_), member});
            return std::string(reply_string(r.get()));
        };
        for (int i = 0; i < 1000 && lease_of() == lease_before; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        c.command({"CLIENT", "KILL", "ID", std::to_string(wc_id)});
        EXPECT_TRUE(release(c, key_, "holder"));
    });
    WaitStats stats;
    const auto started = Clock::now();
    EXPECT_EQ(wait.wait(wc, Deadline::after(10), nullptr, &stats), WaitOutcome::Acquired);
    const double took = std::chrono::duration<double>(Clock::now() - started).count();
    others.join();
    EXPECT_EQ(stats.notifications, 1);
    EXPECT_LT(took, kQueuedPollMs / 1000.0);  // woken, not a poll (which would have failed)
    EXPECT_TRUE(is_held(*conn_, key_, "waiter"));
    // The waiter's TTL (30 s), not a claim window.
    EXPECT_GT(reply_integer(conn_->command({"PTTL", key_}).get()), 25000);
    EXPECT_EQ(queue_length(*conn_, key_), 0);  // the dead member went too
}

namespace {

// Queues a wait for "waiter" behind "holder", has the key granted to it while the wait is away
// (interrupted), then taken from it and by "other" before the grant is read.
void overtake_a_grant(Connection &observer, const std::string &key, Connection &wc,
                      AcquireWait &wait) {
    ASSERT_TRUE(try_acquire(observer, key, "holder", 20));
    auto queued = [&] { return queue_length(observer, key) > 0; };
    ASSERT_EQ(wait.wait(wc, Deadline::after(10), queued), WaitOutcome::Interrupted);
    EXPECT_TRUE(release(observer, key, "holder"));  // granted to "waiter", message unread
    ASSERT_TRUE(is_held(observer, key, "waiter"));
    observer.command({"DEL", key});                        // taken away (force release) …
    ASSERT_TRUE(try_acquire(observer, key, "other", 20));  // … and by another
}

}  // namespace

// A grant that was overtaken (the key was taken from the waiter again before it read the
// message: a force release, an expiry) is not trusted: the wait's place gets a new id, and the
// old grant, still in the subscriber, no longer counts.
TEST_F(RedisLockTest, AGrantOvertakenBeforeItWasReadDoesNotCount) {
    Connection wc(server());
    AcquireWait wait(server(), key_, "waiter", 20);
    overtake_a_grant(*conn_, key_, wc, wait);
    EXPECT_EQ(wait.wait(wc, Deadline::after(0.3), nullptr), WaitOutcome::TimedOut);
    EXPECT_TRUE(is_held(*conn_, key_, "other"));
    EXPECT_EQ(queue_length(*conn_, key_), 0);
}

// The same, with a signal pending just after the call that found the place gone (and took it
// again): the new id must already be in force when the wait resumes.
TEST_F(RedisLockTest, AGrantOvertakenBeforeAnInterruptDoesNotCountAfterIt) {
    Connection wc(server());
    AcquireWait wait(server(), key_, "waiter", 20);
    overtake_a_grant(*conn_, key_, wc, wait);
    int asked = 0;
    // Asked before the call, then after it: interrupted right after the call.
    ASSERT_EQ(wait.wait(wc, Deadline::after(10), [&] { return ++asked == 2; }),
              WaitOutcome::Interrupted);
    EXPECT_EQ(wait.wait(wc, Deadline::after(0.3), nullptr), WaitOutcome::TimedOut);
    EXPECT_TRUE(is_held(*conn_, key_, "other"));
}

// Waiters with a TTL over kGrantMaxTtlSeconds (and fencing ones) are handed the key for a
// claim window only, and claim it with their TTL on their next call: one that died meanwhile,
// unseen by the server, costs at most the window.
TEST_F(RedisLockTest, AWaiterWithALongTtlIsHandedAClaimWindow) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    Connection wc(server());
    const long long ttl = kGrantMaxTtlSeconds + 60;
    AcquireWait wait(server(), key_, "waiter", ttl);
    auto queued = [this] { return queue_length(*conn_, key_) > 0; };
    ASSERT_EQ(wait.wait(wc, Deadline::after(10), queued), WaitOutcome::Interrupted);
    EXPECT_EQ(only_member(*conn_, key_).find('/'), std::string::npos);
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    EXPECT_TRUE(is_held(*conn_, key_, "waiter"));
    EXPECT_LE(reply_integer(conn_->command({"PTTL", key_}).get()), kClaimWindowMs);
    EXPECT_EQ(wait.wait(wc, Deadline::after(10), nullptr), WaitOutcome::Acquired);
    EXPECT_GT(reply_integer(conn_->command({"PTTL", key_}).get()), (ttl - 5) * 1000);
}

// A call whose reply is lost (a read timeout: here the server pauses its clients) may still
// have queued the wait: the wait then ends queued, and its subscriber is closed.
TEST_F(RedisLockTest, AWaitWhoseQueueingReplyWasLostClosesItsSubscriber) {
    // Known to the server beforehand (another test may have flushed the script cache): the
    // EVALSHA that times out must run when the pause ends, not fail with NOSCRIPT.
    conn_->command({"SCRIPT", "LOAD", kQueuedAcquireScript.source});
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    ConnectionParams impatient = server();
    impatient.read_timeout = 0.2;
    SubscriberPool subscribers;
    // Subscribed before the server pauses.
    ASSERT_NE(subscribers.get(impatient, [] { return false; }), nullptr);
    bool threw = false;
    // Open until the pause ends: the server then runs the script it was sent.
    Connection wc(impatient);
    {
        AcquireWait wait(impatient, key_, "waiter", 30, &subscribers);
        bool first = true;
        ASSERT_EQ(wait.wait(wc, Deadline::after(10), [&] { return std::exchange(first, false); }),
                  WaitOutcome::Interrupted);
        // Every client's commands wait 500 ms, the wait's script too (it runs afterwards).
        conn_->command({"CLIENT", "PAUSE", "500"});
        try {
            wait.wait(wc, Deadline::after(10), nullptr);
        } catch (const ConnectionError &) {
            threw = true;
        }
    }
    ASSERT_TRUE(threw);
    EXPECT_EQ(subscribers.size(), 0u);
    for (int i = 0; i < 300 && queue_length(*conn_, key_) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(queue_length(*conn_, key_), 1);                           // the script ran after all
    EXPECT_NE(only_member(*conn_, key_).find('/'), std::string::npos);  // one that takes grants
    for (int i = 0;
         i < 500 && channel_subscribers(*conn_, member_channel(only_member(*conn_, key_))) > 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    EXPECT_FALSE(is_held(*conn_, key_, "waiter"));  // skipped, not granted
}

// A wait that ends while still queued (an exception on its command connection) closes its
// subscriber: the place it leaves behind is skipped by the next hand-over, not granted.
TEST_F(RedisLockTest, AWaitEndingQueuedClosesItsSubscriber) {
    ASSERT_TRUE(try_acquire(*conn_, key_, "holder", 20));
    SubscriberPool subscribers;
    std::string channel;
    {
        Connection wc(server());
        AcquireWait wait(server(), key_, "stranded", 20, &subscribers);
        auto queued = [this] { return queue_length(*conn_, key_) > 0; };
        ASSERT_EQ(wait.wait(wc, Deadline::after(10), queued), WaitOutcome::Interrupted);
        channel = member_channel(only_member(*conn_, key_));
        ASSERT_EQ(channel_subscribers(*conn_, channel), 1);
    }  // destroyed without leave_queue()
    EXPECT_EQ(subscribers.size(), 0u);
    EXPECT_EQ(queue_length(*conn_, key_), 1);  // its place stays until its lease runs out
    for (int i = 0; i < 500 && channel_subscribers(*conn_, channel) > 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(channel_subscribers(*conn_, channel), 0);
    ThreadWaiter live(key_, "live", 10);
    wait_for_queue(*conn_, key_, 2);
    const auto released = Clock::now();
    EXPECT_TRUE(release(*conn_, key_, "holder"));
    live.thread.join();
    EXPECT_EQ(live.outcome, WaitOutcome::Acquired);
    EXPECT_LT(std::chrono::duration<double>(live.got - released).count(), 0.3);
    EXPECT_EQ(queue_length(*conn_, key_), 0);
}

// A forked child closes its copy of every subscriber's socket at once: a child that lives on
// must not keep its parent's subscription (and with it a queued place) alive on the server.
TEST_F(RedisLockTest, AForkedChildDoesNotKeepItsParentsSubscriptionOpen) {
    SubscriberPool subscribers;
    Subscriber *sub = subscribers.get(server(), [] { return false; });
    ASSERT_NE(sub, nullptr);
    const std::string channel = sub->channel;
    ASSERT_EQ(channel_subscribers(*conn_, channel), 1);
    int gate[2];
    ASSERT_EQ(::pipe(gate), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // Lives on until the parent has looked.
        char byte;
        ::close(gate[1]);
        (void)!::read(gate[0], &byte, 1);
        ::_exit(0);
    }
    ::close(gate[0]);
    subscribers.drop(server());  // the parent's copy
    for (int i = 0; i < 500 && channel_subscribers(*conn_, channel) > 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(channel_subscribers(*conn_, channel), 0);
    ::close(gate[1]);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status));
}
