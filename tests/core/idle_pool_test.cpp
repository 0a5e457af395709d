// The idle sweep every pool shares (common/idle_pool.hpp), on a connection stand-in that
// records its closing. Times are passed in: nothing here waits or depends on the machine's speed.
#include "common/idle_pool.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

using nativelock::IdlePool;
using namespace std::chrono_literals;

namespace {

struct FakeConnection {
    FakeConnection(std::string key, std::set<std::string> &closed)
        : key(std::move(key)), closed(closed) {}
    ~FakeConnection() { closed.insert(key); }
    std::string key;
    std::set<std::string> &closed;
};

class IdlePoolTest : public ::testing::Test {
  protected:
    using Pool = IdlePool<FakeConnection>;
    using Clock = Pool::Clock;

    FakeConnection &open(const std::string &key, Clock::time_point at) {
        return pool_.add(key, std::make_unique<FakeConnection>(key, closed_), at);
    }

    std::set<std::string> closed_;
    Pool pool_;  // after closed_: its connections report to it when the pool goes
    const Clock::time_point t0_ = Clock::now();
};

}  // namespace

TEST_F(IdlePoolTest, DefaultsToAMinute) {
    EXPECT_EQ(pool_.idle_timeout(), Clock::duration(60s));
}

TEST_F(IdlePoolTest, ClosesOnlyConnectionsIdleForTheTimeout) {
    pool_.set_idle_timeout(10s);
    open("a", t0_);
    open("b", t0_ + 5s);
    EXPECT_EQ(pool_.close_idle(t0_ + 9s), 0u);
    EXPECT_EQ(pool_.close_idle(t0_ + 12s), 1u);
    EXPECT_EQ(closed_, std::set<std::string>{"a"});
    EXPECT_EQ(pool_.size(), 1u);
    EXPECT_EQ(pool_.opened(), 2u);
    EXPECT_EQ(pool_.closed_idle(), 1u);
}

TEST_F(IdlePoolTest, UseRestartsTheIdleTime) {
    pool_.set_idle_timeout(10s);
    FakeConnection &a = open("a", t0_);
    EXPECT_EQ(pool_.find("a", t0_ + 8s), &a);
    EXPECT_EQ(pool_.close_idle(t0_ + 15s), 0u);
    EXPECT_EQ(pool_.close_idle(t0_ + 18s), 1u);
    EXPECT_EQ(pool_.find("a", t0_ + 19s), nullptr);
}

TEST_F(IdlePoolTest, PinnedConnectionsAreNeverClosedAndIdleFromTheirRelease) {
    pool_.set_idle_timeout(10s);
    open("held", t0_);
    open("free", t0_);
    {
        Pool::Pin first = pool_.pin("held");
        Pool::Pin second = pool_.pin("held");  // two users: both must let go
        Pool::Pin moved = std::move(first);
        EXPECT_FALSE(first);
        EXPECT_EQ(pool_.close_idle(t0_ + 1h), 1u);  // "free" only
        second.reset();
        EXPECT_TRUE(pool_.pinned("held"));
        EXPECT_EQ(pool_.close_idle(t0_ + 2h), 0u);
    }
    EXPECT_FALSE(pool_.pinned("held"));
    // Idle since the last user let go (now), not since it was opened.
    EXPECT_EQ(pool_.close_idle(Clock::now() + 5s), 0u);
    EXPECT_EQ(pool_.close_idle(Clock::now() + 11s), 1u);
    EXPECT_EQ(closed_, (std::set<std::string>{"free", "held"}));
}

TEST_F(IdlePoolTest, APinAlsoCoversAReplacementOpenedLater) {
    pool_.set_idle_timeout(10s);
    Pool::Pin pin = pool_.pin("a");  // a wait pins its key before its connection exists
    open("a", t0_);
    pool_.drop("a");  // broken: dropped, not counted as idle
    open("a", t0_);
    EXPECT_EQ(pool_.close_idle(t0_ + 1h), 0u);
    EXPECT_EQ(pool_.closed_idle(), 0u);
    EXPECT_EQ(pool_.opened(), 2u);
}

TEST_F(IdlePoolTest, TheSweepOnAccessSparesTheConnectionJustFound) {
    pool_.set_idle_timeout(10s);
    open("a", t0_);
    open("b", t0_);
    ASSERT_NE(pool_.find("a", t0_ + 1h), nullptr);  // what an access does first
    EXPECT_EQ(pool_.close_idle_on_access(t0_ + 1h), 1u);
    EXPECT_EQ(closed_, std::set<std::string>{"b"});
    EXPECT_EQ(pool_.size(), 1u);
}

TEST_F(IdlePoolTest, ZeroClosesEveryUnpinnedConnectionAtRequestEndButNoneOnAccess) {
    pool_.set_idle_timeout(Clock::duration::zero());
    open("a", t0_);
    open("b", t0_);
    open("c", t0_);
    Pool::Pin in_use = pool_.pin("c");
    // While the request runs, connections it used stay for it, however long idle.
    EXPECT_EQ(pool_.close_idle_on_access(t0_ + 1h), 0u);
    EXPECT_EQ(pool_.close_idle(t0_), 2u);
    EXPECT_EQ(closed_, (std::set<std::string>{"a", "b"}));
    EXPECT_EQ(pool_.size(), 1u);
}
