// The RedisLock protocol, wire-compatible with the original gist:
//   acquire  SET <key> <value> NX EX <ttl>
//   release  compare-and-delete script (deletes only if the value is still ours), which also
//            PUBLISHes on release_channel(key) so that waiters wake at once
// plus refresh / remaining lifetime / ownership checks and a notification-driven wait.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

enum class WaitOutcome { Acquired, TimedOut, Interrupted };

// Acquires, waiting until `deadline` if the key is taken. Subscribes to the release channel
// on a second connection before retrying; retries on each notification, at the key's expiry
// and on a short adaptive poll (5 → 100 ms) for releasers that do not publish. A final attempt
// is made at the deadline.
//
// `interrupted` is asked between attempts, before each poll and whenever a signal interrupts
// one; true returns Interrupted. The caller runs what is pending and calls wait() again with
// the SAME deadline: the subscription is kept, the budget is not restarted.
class AcquireWait {
  public:
    AcquireWait(const ConnectionParams &params, std::string key, std::string value,
                long long ttl_seconds);

    // `conn` is the command connection; it may differ between calls (fetch it again from the
    // pool after running user code).
    WaitOutcome wait(Connection &conn, const Deadline &deadline,
                     const std::function<bool()> &interrupted, WaitStats *stats = nullptr);

  private:
    // Subscribes (once per process: a forked child subscribes again on its own connection).
    // Returns false when interrupted before the subscription was confirmed.
    bool subscribe(const std::function<bool()> &interrupted);

    ConnectionParams params_;
    std::string key_;
    std::string value_;
    long long ttl_seconds_;
    std::string ttl_;
    std::string channel_;
    std::unique_ptr<Connection> subscriber_;
    bool subscribed_ = false;
    std::optional<Deadline> subscribe_until_;
    bool first_attempt_done_ = false;
    int poll_ms_ = 5;
};

// One AcquireWait::wait() (tests and callers that have nothing to run on an interrupt).
WaitOutcome acquire_waiting(Connection &conn, const ConnectionParams &params, std::string_view key,
                            std::string_view value, long long ttl_seconds, const Deadline &deadline,
                            const std::function<bool()> &interrupted, WaitStats *stats = nullptr);

}  // namespace nativelock::redis
