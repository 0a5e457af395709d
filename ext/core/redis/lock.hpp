// The RedisLock protocol, wire-compatible with the original gist:
//   acquire  SET <key> <value> NX EX <ttl>
//   release  compare-and-delete script (deletes only if the value is still ours), which also
//            PUBLISHes on release_channel(key) so that waiters wake at once
// plus refresh / remaining lifetime / ownership checks and a notification-driven wait.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/deadline.hpp"
#include "redis/connection.hpp"
#include "redis/params.hpp"

namespace nativelock::redis {

// Channel a release of `key` is announced on.
std::string release_channel(std::string_view key);

// The Lua scripts and their SHA1 digests (EVALSHA first, EVAL on NOSCRIPT).
struct Script {
    const char *source;
    const char *sha1;
};
extern const Script kReleaseScript;   // KEYS[1]=key ARGV[1]=value ARGV[2]=channel → 1/0
extern const Script kRefreshScript;   // KEYS[1]=key ARGV[1]=value ARGV[2]=ttl ms → 1/0
extern const Script kLifetimeScript;  // KEYS[1]=key ARGV[1]=value → pttl ms, or -3 if not ours

// Runs a script by digest, loading it with EVAL if the server does not know it. Server
// errors throw ProtocolError.
Reply run_script(Connection &conn, const Script &script, std::string_view key,
                 std::initializer_list<std::string_view> args);

// One SET NX EX attempt. Throws ProtocolError on a server error (e.g. invalid expire time).
bool try_acquire(Connection &conn, std::string_view key, std::string_view value,
                 long long ttl_seconds);

// Deletes the key if its value is still `value`, announcing it on release_channel(key).
bool release(Connection &conn, std::string_view key, std::string_view value);

// Sets the key's expiry to ttl_ms if its value is still ours.
bool refresh(Connection &conn, std::string_view key, std::string_view value, long long ttl_ms);

// Milliseconds the key has left if its value is still ours; nothing if it is gone or not
// ours; -1 if it has no expiry.
std::optional<long long> remaining_ms(Connection &conn, std::string_view key,
                                      std::string_view value);

// Whether the key still holds our value.
bool is_held(Connection &conn, std::string_view key, std::string_view value);

struct WaitStats {
    int attempts = 0;
    int notifications = 0;
};

// Acquires, waiting until `deadline` if the key is taken. Subscribes to the release channel
// on a second connection before retrying; retries on each notification, at the key's expiry
// and on a short adaptive poll (5 → 100 ms) for releasers that do not publish. A final attempt
// is made at the deadline. `interrupted` is asked between waits; true ends the wait.
bool acquire_waiting(Connection &conn, const ConnectionParams &params, std::string_view key,
                     std::string_view value, long long ttl_seconds, const Deadline &deadline,
                     const std::function<bool()> &interrupted, WaitStats *stats = nullptr);

}  // namespace nativelock::redis
