// The redis-server the core tests run against (tests/servers/redis.sh): NATIVELOCK_REDIS_HOST
// and NATIVELOCK_REDIS_PORT. Without one the tests skip, except in CI where they fail.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "common/error.hpp"
#include "common/random.hpp"
#include "redis/connection.hpp"
#include "redis/params.hpp"

namespace nativelock::redis::test_support {

inline ConnectionParams server() {
    ConnectionParams p;
    const char *host = std::getenv("NATIVELOCK_REDIS_HOST");
    const char *port = std::getenv("NATIVELOCK_REDIS_PORT");
    p.host = host && *host ? host : "127.0.0.1";
    p.port = port && *port ? std::atoi(port) : 16379;
    p.connect_timeout = 2;
    p.read_timeout = 5;
    return p;
}

inline bool in_ci() {
    const char *ci = std::getenv("CI");
    return ci && std::string(ci) == "true";
}

// A test with a connection to the server (conn_) and a fresh key name (key_).
class RedisServerTest : public ::testing::Test {
  protected:
    // Connects; without a server the test is skipped (failed in CI). Call from SetUp().
    void connect(const std::string &key_prefix) {
        try {
            conn_ = std::make_unique<Connection>(server());
        } catch (const ConnectionError &e) {
            if (in_ci()) FAIL() << "no redis-server in CI: " << e.what();
            GTEST_SKIP() << e.what();
        }
        key_ = key_prefix + random::hex_token(8);
    }
    std::unique_ptr<Connection> conn_;
    std::string key_;
};

}  // namespace nativelock::redis::test_support
