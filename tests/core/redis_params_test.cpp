// URI parsing and pool keys of the Redis connection parameters (no server needed).
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "redis/params.hpp"

using namespace nativelock;
using namespace nativelock::redis;

TEST(RedisParams, RedisUriWithEverything) {
    auto p = parse_uri("redis://user:p%40ss@example.org:6380/3");
    EXPECT_EQ(p.host, "example.org");
    EXPECT_EQ(p.port, 6380);
    EXPECT_EQ(p.database, 3);
    EXPECT_EQ(p.username, "user");
    EXPECT_EQ(p.password, "p@ss");
    EXPECT_TRUE(p.has_password);
    EXPECT_TRUE(p.unix_path.empty());
    EXPECT_EQ(p.describe(), "example.org:6380");
}

TEST(RedisParams, RedisUriDefaults) {
    auto p = parse_uri("redis://localhost");
    EXPECT_EQ(p.host, "localhost");
    EXPECT_EQ(p.port, 6379);
    EXPECT_EQ(p.database, 0);
    EXPECT_FALSE(p.has_password);
}

TEST(RedisParams, PasswordOnlyUserinfo) {
    auto p = parse_uri("redis://:secret@h:1");
    EXPECT_EQ(p.username, "");
    EXPECT_EQ(p.password, "secret");
    auto q = parse_uri("redis://secret@h");
    EXPECT_EQ(q.password, "secret");
}

TEST(RedisParams, Ipv6) {
    auto p = parse_uri("redis://[::1]:7000/2");
    EXPECT_EQ(p.host, "::1");
    EXPECT_EQ(p.port, 7000);
    EXPECT_EQ(p.database, 2);
    EXPECT_EQ(p.describe(), "[::1]:7000");
}

TEST(RedisParams, TcpAndUnix) {
    auto t = parse_uri("tcp://10.0.0.1:6390");
    EXPECT_EQ(t.host, "10.0.0.1");
    EXPECT_EQ(t.port, 6390);
    auto u = parse_uri("unix:///run/redis.sock");
    EXPECT_EQ(u.unix_path, "/run/redis.sock");
    EXPECT_EQ(u.describe(), "unix:/run/redis.sock");
    auto s = parse_uri("/tmp/r.sock");
    EXPECT_EQ(s.unix_path, "/tmp/r.sock");
    auto d = parse_uri("unix:///tmp/r.sock?database=4");
    EXPECT_EQ(d.database, 4);
}

TEST(RedisParams, Rejected) {
    for (const char *bad : {"", "localhost:6379", "http://x", "redis://", "redis://h:99999",
                            "redis://h:0", "redis://h:x", "redis://h/db", "rediss://h",
                            "tcp://h:1/2", "unix://relative", "redis://[::1", "redis://h:"}) {
        EXPECT_THROW(parse_uri(bad), InvalidArgument) << bad;
    }
    try {
        parse_uri("rediss://h");
    } catch (const InvalidArgument &e) {
        EXPECT_NE(std::string(e.what()).find("TLS"), std::string::npos);
    }
}

TEST(RedisParams, PoolKeySeparatesSessionsNotTimeouts) {
    auto a = parse_uri("redis://h:1/0");
    auto b = parse_uri("redis://h:1/1");
    auto c = parse_uri("redis://u:p@h:1/0");
    EXPECT_NE(a.pool_key(), b.pool_key());
    EXPECT_NE(a.pool_key(), c.pool_key());
    auto d = a;
    d.read_timeout = 99;
    d.connect_timeout = 99;
    EXPECT_EQ(a.pool_key(), d.pool_key());
}
