// URI parsing, redaction and pool keys of the Redis connection parameters (no server needed).
// The shim tokenizes URIs with PHP's own parser (php_url_parse_ex2, as parse_url()); the table
// below holds parse_url()'s results for each URI (PHP 8.2, generated with php -r and
// json_encode(parse_url($uri))), so the rules on top are tested against what PHP really gives.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "redis/params.hpp"

using namespace nativelock;
using namespace nativelock::redis;

namespace {

using Part = std::optional<std::string>;

std::optional<UriParts> parts(Part scheme, Part user, Part pass, Part host, Part path, Part query,
                              Part fragment, std::optional<long long> port) {
    UriParts u;
    u.scheme = std::move(scheme);
    u.user = std::move(user);
    u.pass = std::move(pass);
    u.host = std::move(host);
    u.path = std::move(path);
    u.query = std::move(query);
    u.fragment = std::move(fragment);
    u.port = port;
    return u;
}

// clang-format off
const std::vector<std::pair<std::string, std::optional<UriParts>>> kParseUrl = {
    {"redis://user:p%40ss@example.org:6380/3", parts("redis", "user", "p%40ss", "example.org", "/3", std::nullopt, std::nullopt, 6380LL)},
    {"redis://localhost", parts("redis", std::nullopt, std::nullopt, "localhost", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://:secret@h:1", parts("redis", "", "secret", "h", std::nullopt, std::nullopt, std::nullopt, 1LL)},
    {"redis://secret@h", parts("redis", "secret", std::nullopt, "h", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://[::1]:7000/2", parts("redis", std::nullopt, std::nullopt, "[::1]", "/2", std::nullopt, std::nullopt, 7000LL)},
    {"redis://[::1]", parts("redis", std::nullopt, std::nullopt, "[::1]", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"tcp://10.0.0.1:6390", parts("tcp", std::nullopt, std::nullopt, "10.0.0.1", std::nullopt, std::nullopt, std::nullopt, 6390LL)},
    {"unix:/run/redis.sock", parts("unix", std::nullopt, std::nullopt, std::nullopt, "/run/redis.sock", std::nullopt, std::nullopt, std::nullopt)},
    {"redis://h:1/0", parts("redis", std::nullopt, std::nullopt, "h", "/0", std::nullopt, std::nullopt, 1LL)},
    {"redis://h:1/1", parts("redis", std::nullopt, std::nullopt, "h", "/1", std::nullopt, std::nullopt, 1LL)},
    {"redis://u:p@h:1/0", parts("redis", "u", "p", "h", "/0", std::nullopt, std::nullopt, 1LL)},
    {"redis://:p@ss@host/3", parts("redis", "", "p@ss", "host", "/3", std::nullopt, std::nullopt, std::nullopt)},
    {"redis://u:p:w@host", parts("redis", "u", "p:w", "host", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://u:p%2Fw%23x%40y%3Az%25@host:6380", parts("redis", "u", "p%2Fw%23x%40y%3Az%25", "host", std::nullopt, std::nullopt, std::nullopt, 6380LL)},
    {"redis://u%40x:p%3Aw@h", parts("redis", "u%40x", "p%3Aw", "h", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://:100%sure@h", parts("redis", "", "100%sure", "h", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://:a+b@h", parts("redis", "", "a+b", "h", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://user:pa/ss@host:6379/2", std::nullopt},
    {"redis://u:p#w@host", std::nullopt},
    {"redis://u:s3cr3t@h:abc", std::nullopt},
    {"redis://u:pw@[::1", parts("redis", "u", "pw", "[:", std::nullopt, std::nullopt, std::nullopt, 1LL)},
    {"redis://u:p?w@h", std::nullopt},
    {"localhost:6379", parts(std::nullopt, std::nullopt, std::nullopt, "localhost", std::nullopt, std::nullopt, std::nullopt, 6379LL)},
    {"http://x", parts("http", std::nullopt, std::nullopt, "x", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://", std::nullopt},
    {"redis://h:99999", std::nullopt},
    {"redis://h:0", parts("redis", std::nullopt, std::nullopt, "h", std::nullopt, std::nullopt, std::nullopt, 0LL)},
    {"redis://h:x", std::nullopt},
    {"redis://h/db", parts("redis", std::nullopt, std::nullopt, "h", "/db", std::nullopt, std::nullopt, std::nullopt)},
    {"rediss://h", parts("rediss", std::nullopt, std::nullopt, "h", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"tcp://h:1/2", parts("tcp", std::nullopt, std::nullopt, "h", "/2", std::nullopt, std::nullopt, 1LL)},
    {"redis://[::1", parts("redis", std::nullopt, std::nullopt, "[:", std::nullopt, std::nullopt, std::nullopt, 1LL)},
    {"redis://h:", parts("redis", std::nullopt, std::nullopt, "h", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://h#frag", parts("redis", std::nullopt, std::nullopt, "h", std::nullopt, std::nullopt, "frag", std::nullopt)},
    {"redis://h?timeout=3", parts("redis", std::nullopt, std::nullopt, "h", std::nullopt, "timeout=3", std::nullopt, std::nullopt)},
    {"redis://user:secret", std::nullopt},
    {"redis://h/0?password=s3cr3t", parts("redis", std::nullopt, std::nullopt, "h", "/0", "password=s3cr3t", std::nullopt, std::nullopt)},
    {"unix://localhost/tmp/r.sock", parts("unix", std::nullopt, std::nullopt, "localhost", "/tmp/r.sock", std::nullopt, std::nullopt, std::nullopt)},
    {"redis://user:SECRET/x@host:6379/2", std::nullopt},
    {"redis://u:SE#CRET@host", std::nullopt},
    {"redis://u:SECRET@h:abc", std::nullopt},
    {"redis://user:SECRET", std::nullopt},
    {"redis://h/0?password=SECRET", parts("redis", std::nullopt, std::nullopt, "h", "/0", "password=SECRET", std::nullopt, std::nullopt)},
    {"redis://u:SECRET@h?timeout=3", parts("redis", "u", "SECRET", "h", std::nullopt, "timeout=3", std::nullopt, std::nullopt)},
    {"redis://:SECRET@h:0", parts("redis", "", "SECRET", "h", std::nullopt, std::nullopt, std::nullopt, 0LL)},
    {"redis://u:SECRET@h/x", parts("redis", "u", "SECRET", "h", "/x", std::nullopt, std::nullopt, std::nullopt)},
    {"redis://u:SECRET@h#frag", parts("redis", "u", "SECRET", "h", std::nullopt, std::nullopt, "frag", std::nullopt)},
    {"redis://u:SECRET@[::1", parts("redis", "u", "SECRET", "[:", std::nullopt, std::nullopt, std::nullopt, 1LL)},
    {"rediss://u:SECRET@h", parts("rediss", "u", "SECRET", "h", std::nullopt, std::nullopt, std::nullopt, std::nullopt)},
    {"redis://SECRET@h:0", parts("redis", "SECRET", std::nullopt, "h", std::nullopt, std::nullopt, std::nullopt, 0LL)},
    {"redis://u:SECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRET@h:0", parts("redis", "u", "SECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRET", "h", std::nullopt, std::nullopt, std::nullopt, 0LL)},
    {"redis://h/0?db=1&password=SECRET&x=1", parts("redis", std::nullopt, std::nullopt, "h", "/0", "db=1&password=SECRET&x=1", std::nullopt, std::nullopt)},
    {"unix:///tmp/r.sock?password=SECRET&y=2", std::nullopt},
};
// clang-format on

// parse_uri() with parse_url()'s result for `uri` from the table.
ConnectionParams parse(const std::string &uri) {
    for (const auto &[text, url] : kParseUrl) {
        if (text == uri) return parse_uri(uri, url);
    }
    // parse_url() returns false for these (unix:///path is taken before parse_url() is asked).
    if (uri.empty() || uri[0] == '/' || uri.rfind("unix://", 0) == 0) {
        return parse_uri(uri, std::nullopt);
    }
    ADD_FAILURE() << "no parse_url() result recorded for " << uri;
    return {};
}

std::string rejection(const std::string &uri) {
    try {
        parse(uri);
    } catch (const InvalidArgument &e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST(RedisParams, RedisUriWithEverything) {
    auto p = parse("redis://user:p%40ss@example.org:6380/3");
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
    auto p = parse("redis://localhost");
    EXPECT_EQ(p.host, "localhost");
    EXPECT_EQ(p.port, 6379);
    EXPECT_EQ(p.database, 0);
    EXPECT_FALSE(p.has_password);
    // parse_url() reads an empty port as none.
    EXPECT_EQ(parse("redis://h:").port, 6379);
}

TEST(RedisParams, PasswordOnlyUserinfo) {
    auto p = parse("redis://:secret@h:1");
    EXPECT_EQ(p.username, "");
    EXPECT_EQ(p.password, "secret");
    auto q = parse("redis://secret@h");
    EXPECT_EQ(q.password, "secret");
    EXPECT_EQ(q.username, "");
}

TEST(RedisParams, PasswordsWithSpecialCharacters) {
    // parse_url() splits userinfo at the last '@' and the first ':'.
    EXPECT_EQ(parse("redis://:p@ss@host/3").password, "p@ss");
    EXPECT_EQ(parse("redis://:p@ss@host/3").database, 3);
    EXPECT_EQ(parse("redis://u:p:w@host").password, "p:w");
    // Percent-encoded / # @ : % are decoded (rawurldecode).
    auto e = parse("redis://u:p%2Fw%23x%40y%3Az%25@host:6380");
    EXPECT_EQ(e.password, "p/w#x@y:z%");
    EXPECT_EQ(e.port, 6380);
    auto u = parse("redis://u%40x:p%3Aw@h");
    EXPECT_EQ(u.username, "u@x");
    EXPECT_EQ(u.password, "p:w");
    // Not escapes: kept as they are, like rawurldecode(); '+' is not a space.
    EXPECT_EQ(parse("redis://:100%sure@h").password, "100%sure");
    EXPECT_EQ(parse("redis://:a+b@h").password, "a+b");
}

TEST(RedisParams, Ipv6) {
    auto p = parse("redis://[::1]:7000/2");
    EXPECT_EQ(p.host, "::1");
    EXPECT_EQ(p.port, 7000);
    EXPECT_EQ(p.database, 2);
    EXPECT_EQ(p.describe(), "[::1]:7000");
    EXPECT_EQ(parse("redis://[::1]").port, 6379);
}

TEST(RedisParams, TcpAndUnix) {
    auto t = parse("tcp://10.0.0.1:6390");
    EXPECT_EQ(t.host, "10.0.0.1");
    EXPECT_EQ(t.port, 6390);
    auto u = parse("unix:///run/redis.sock");
    EXPECT_EQ(u.unix_path, "/run/redis.sock");
    EXPECT_EQ(u.describe(), "unix:/run/redis.sock");
    EXPECT_EQ(parse("unix:/run/redis.sock").unix_path, "/run/redis.sock");
    auto s = parse("/tmp/r.sock");
    EXPECT_EQ(s.unix_path, "/tmp/r.sock");
    auto d = parse("unix:///tmp/r.sock?database=4");
    EXPECT_EQ(d.database, 4);
}

TEST(RedisParams, Rejected) {
    for (const char *bad :
         {"", "localhost:6379", "http://x", "redis://", "redis://h:99999", "redis://h:0",
          "redis://h:x", "redis://h/db", "rediss://h", "tcp://h:1/2", "unix://relative",
          "redis://[::1", "redis://user:pa/ss@host:6379/2", "redis://u:p#w@host", "redis://u:p?w@h",
          "redis://h#frag", "redis://h?timeout=3", "unix://localhost/tmp/r.sock"}) {
        EXPECT_NE(rejection(bad), "accepted") << bad;
    }
    EXPECT_NE(rejection("rediss://h").find("TLS"), std::string::npos);
    EXPECT_NE(rejection("redis://h?timeout=3").find("unsupported URI parameter \"timeout\""),
              std::string::npos)
        << rejection("redis://h?timeout=3");
    EXPECT_NE(rejection("redis://user:pa/ss@host:6379/2").find("percent-encoded"),
              std::string::npos);
}

TEST(RedisParams, RejectionsNeverShowThePassword) {
    int checked = 0;
    for (const auto &[uri, url] : kParseUrl) {
        if (uri.find("SECRET") == std::string::npos && uri.find("SE#CRET") == std::string::npos)
            continue;
        if (uri == "redis://h/0?password=SECRET") continue;  // valid: accepted
        std::string message = rejection(uri);
        ASSERT_NE(message, "accepted") << uri;
        EXPECT_EQ(message.find("SECRET"), std::string::npos) << message;
        EXPECT_EQ(message.find("CRET"), std::string::npos) << message;
        EXPECT_NE(message.find("***"), std::string::npos) << message;
        ++checked;
    }
    EXPECT_GE(checked, 14);
    // The host stays visible where it can be told apart.
    EXPECT_NE(rejection("redis://:SECRET@h:0").find("\"redis://***@h:0\""), std::string::npos)
        << rejection("redis://:SECRET@h:0");
}

TEST(RedisParams, RedactUri) {
    EXPECT_EQ(redact_uri("redis://u:pw@h:1/2"), "redis://***@h:1/2");
    EXPECT_EQ(redact_uri("redis://h:6379/2"), "redis://h:6379/2");
    EXPECT_EQ(redact_uri("redis://user:secret"), "redis://user:***");
    EXPECT_EQ(redact_uri("redis://h/0?db=1&password=x&y=2"), "redis://h/0?db=1&password=***&y=2");
    EXPECT_EQ(redact_uri("redis://h/0?user=a&pass=b"), "redis://h/0?user=***&pass=***");
    EXPECT_EQ(redact_uri(std::string("a\nb", 3)), "a\\x0ab");
}

TEST(RedisParams, PoolKeySeparatesSessionsNotTimeouts) {
    auto a = parse("redis://h:1/0");
    auto b = parse("redis://h:1/1");
    auto c = parse("redis://u:p@h:1/0");
    EXPECT_NE(a.pool_key(), b.pool_key());
    EXPECT_NE(a.pool_key(), c.pool_key());
    auto d = a;
    d.read_timeout = 99;
    d.connect_timeout = 99;
    EXPECT_EQ(a.pool_key(), d.pool_key());
}

// Settings read from a client object (Credis_Client, phpredis \Redis, Predis\Client).
TEST(RedisClientSettings, DefaultsAndLocalhost) {
    auto p = params_from_client(ClientSettings{});
    EXPECT_EQ(p.host, "127.0.0.1");
    EXPECT_EQ(p.port, 6379);
    EXPECT_EQ(p.database, 0);
    EXPECT_TRUE(p.unix_path.empty());
    EXPECT_FALSE(p.has_password);
    EXPECT_EQ(p.persistent_id, "");

    ClientSettings c;
    c.host = "localhost";
    c.port = 6380;
    EXPECT_EQ(params_from_client(c).host, "127.0.0.1");
    EXPECT_EQ(params_from_client(c).port, 6380);
    c.host = "";  // empty host: the default
    EXPECT_EQ(params_from_client(c).host, "127.0.0.1");
    c.host = "redis.example";
    EXPECT_EQ(params_from_client(c).host, "redis.example");
}

// No port is the clients' default; a port past 65535 names no server (the client itself could
// not connect), and the lock must not silently go to the default port's server instead.
TEST(RedisClientSettings, NoPortIsTheDefaultAPortPastRangeIsRefused) {
    ClientSettings c;
    for (long long port : {0LL, -1LL}) {
        c.port = port;
        EXPECT_EQ(params_from_client(c).port, 6379) << port;
    }
    for (long long port : {65536LL, 70000LL, 1LL << 40}) {
        c.port = port;
        EXPECT_THROW(params_from_client(c), InvalidArgument) << port;
    }
    c.port = 1;
    EXPECT_EQ(params_from_client(c).port, 1);
    c.port = 65535;
    EXPECT_EQ(params_from_client(c).port, 65535);
}

TEST(RedisClientSettings, UnixPathWinsOverHostAndPort) {
    ClientSettings c;
    c.host = "ignored";
    c.port = 1234;
    c.unix_path = "/run/redis.sock";
    auto p = params_from_client(c);
    EXPECT_EQ(p.unix_path, "/run/redis.sock");
    EXPECT_EQ(p.host, "127.0.0.1");
    EXPECT_EQ(p.port, 6379);
    EXPECT_EQ(p.describe(), "unix:/run/redis.sock");
}

TEST(RedisClientSettings, CredentialsNeedANonEmptyPassword) {
    ClientSettings c;
    c.username = "alice";
    EXPECT_FALSE(params_from_client(c).has_password);
    EXPECT_EQ(params_from_client(c).username, "");  // no AUTH without a password
    c.password = "";
    EXPECT_FALSE(params_from_client(c).has_password);
    EXPECT_EQ(params_from_client(c).username, "");
    c.password = "secret";
    auto p = params_from_client(c);
    EXPECT_TRUE(p.has_password);
    EXPECT_EQ(p.username, "alice");
    EXPECT_EQ(p.password, "secret");
    c.username.reset();
    EXPECT_EQ(params_from_client(c).username, "");
}

TEST(RedisClientSettings, DatabaseAndPersistentId) {
    ClientSettings c;
    c.database = 7;
    c.persistent_id = "worker-1";
    auto p = params_from_client(c);
    EXPECT_EQ(p.database, 7);
    EXPECT_EQ(p.persistent_id, "worker-1");
    c.database = -1;
    EXPECT_THROW(params_from_client(c), InvalidArgument);
    c.database = (1LL << 31) - 1;
    EXPECT_EQ(params_from_client(c).database, (1LL << 31) - 1);
    c.database = 1LL << 31;  // no server has it: refused, not truncated on the way to SELECT
    EXPECT_THROW(params_from_client(c), InvalidArgument);
}

TEST(RedisClientSettings, NulByteInHostOrSocketPathRefused) {
    // A C string ends at the NUL: the lock would go to "127.0.0.1", not the host named.
    ClientSettings c;
    c.host = std::string("127.0.0.1\0.evil", 15);
    EXPECT_THROW(params_from_client(c), InvalidArgument);
    c.host.reset();
    c.unix_path = std::string("/run/redis.sock\0x", 17);
    EXPECT_THROW(params_from_client(c), InvalidArgument);
    c.unix_path = "/run/redis.sock";
    EXPECT_EQ(params_from_client(c).unix_path, "/run/redis.sock");
}

TEST(RedisClientSettings, TlsSchemesRejected) {
    ClientSettings c;
    for (const char *scheme : {"tls", "TLS", "ssl", "rediss", "tlsv1.2", "TLSv1.3"}) {
        c.scheme = scheme;
        EXPECT_THROW(params_from_client(c), InvalidArgument) << scheme;
    }
    // TLS is reported before a bad database.
    c.scheme = "tls";
    c.database = -1;
    try {
        params_from_client(c);
        FAIL();
    } catch (const InvalidArgument &e) {
        EXPECT_NE(std::string(e.what()).find("TLS"), std::string::npos);
    }
    for (const char *scheme : {"tcp", "unix", "redis", ""}) {
        c.scheme = scheme;
        c.database = 0;
        EXPECT_NO_THROW(params_from_client(c)) << scheme;
    }
}

TEST(RedisClientSettings, TimeoutsFallBackToDefaultsUnlessPositive) {
    ConnectionParams p;
    apply_timeouts(p, 1.5, 0.25, 2, 5);
    EXPECT_EQ(p.connect_timeout, 1.5);
    EXPECT_EQ(p.read_timeout, 0.25);
    for (double none : {0.0, -1.0, std::nan("")}) {
        apply_timeouts(p, none, none, 2, 5);
        EXPECT_EQ(p.connect_timeout, 2);
        EXPECT_EQ(p.read_timeout, 5);
    }
    // INF and huge values are clamped, never handed to a time_t conversion as they are.
    for (double huge : {static_cast<double>(INFINITY), 1e9, 1e19, 9.3e18}) {
        apply_timeouts(p, huge, huge, 2, 5);
        EXPECT_EQ(p.connect_timeout, kMaxTimeoutSeconds);
        EXPECT_EQ(p.read_timeout, kMaxTimeoutSeconds);
    }
}
