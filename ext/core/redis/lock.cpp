#include "redis/lock.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/process.hpp"

namespace nativelock::redis {

// Digests are checked against SCRIPT LOAD by tests/core/redis_lock_test.cpp.
const Script kReleaseScript = {
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then redis.call(\"del\",KEYS[1]) "
    "redis.call(\"publish\",ARGV[2],\"1\") return 1 else return 0 end",
    "7494a39f4c612f456fec3a26ace0a2c62b75dca1"};
const Script kRefreshScript = {
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"pexpire\",KEYS[1],ARGV[2]) "
    "else return 0 end",
    "36e94d1c6e02fcefaa7ee5d79eee614dbac55f10"};
const Script kLifetimeScript = {
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"pttl\",KEYS[1]) "
    "else return -3 end",
    "c0b26b4c959ec70b974572e787cacd7cfd31c382"};

namespace {

[[noreturn]] void server_error(const Connection &conn, const char *what, const redisReply *r) {
    throw ProtocolError("Redis at " + conn.params().describe() + " rejected " + what + ": " +
                        std::string(reply_string(r)));
}

bool is_subscribe_ack(const redisReply *r) {
    return reply_elements(r) >= 1 && reply_string(reply_element(r, 0)) == "subscribe";
}

bool is_message(const redisReply *r) {
    return reply_elements(r) >= 1 && reply_string(reply_element(r, 0)) == "message";
}

}  // namespace

std::string release_channel(std::string_view key) {
    std::string channel = "nativelock:released:";
    channel.append(key.data(), key.size());
    return channel;
}

Reply run_script(Connection &conn, const Script &script, std::string_view key,
                 std::initializer_list<std::string_view> args) {
    std::vector<std::string_view> argv;
    argv.reserve(4 + args.size());
    argv.push_back("EVALSHA");
    argv.push_back(script.sha1);
    argv.push_back("1");
    argv.push_back(key);
    argv.insert(argv.end(), args.begin(), args.end());
    Reply r = conn.command(argv);
    if (reply_is_error(r.get()) && reply_string(r.get()).substr(0, 8) == "NOSCRIPT") {
        argv[0] = "EVAL";
        argv[1] = script.source;
        r = conn.command(argv);
    }
    if (reply_is_error(r.get())) server_error(conn, "a lock script", r.get());
    return r;
}

bool try_acquire(Connection &conn, std::string_view key, std::string_view value,
                 long long ttl_seconds) {
    std::string ttl = std::to_string(ttl_seconds);
    Reply r = conn.command({"SET", key, value, "NX", "EX", ttl});
    if (reply_is_status(r.get(), "OK")) return true;
    if (reply_is_nil(r.get())) return false;
    if (reply_is_error(r.get())) server_error(conn, "SET NX EX", r.get());
    throw ProtocolError("Redis at " + conn.params().describe() + ": unexpected reply to SET NX EX");
}

bool release(Connection &conn, std::string_view key, std::string_view value) {
    std::string channel = release_channel(key);
    Reply r = run_script(conn, kReleaseScript, key, {value, channel});
    return reply_integer(r.get()) == 1;
}

bool refresh(Connection &conn, std::string_view key, std::string_view value, long long ttl_ms) {
    std::string ttl = std::to_string(ttl_ms);
    Reply r = run_script(conn, kRefreshScript, key, {value, ttl});
    return reply_integer(r.get()) == 1;
}

std::optional<long long> remaining_ms(Connection &conn, std::string_view key,
                                      std::string_view value) {
    Reply r = run_script(conn, kLifetimeScript, key, {value});
    long long ms = reply_integer(r.get());
    if (ms == -3 || ms == -2) return std::nullopt;
    return ms;
}

bool is_held(Connection &conn, std::string_view key, std::string_view value) {
    Reply r = conn.command({"GET", key});
    if (reply_is_error(r.get())) server_error(conn, "GET", r.get());
    return !reply_is_nil(r.get()) && reply_string(r.get()) == value;
}

AcquireWait::AcquireWait(const ConnectionParams &params, std::string key, std::string value,
                         long long ttl_seconds)
    : params_(params),
      key_(std::move(key)),
      value_(std::move(value)),
      ttl_seconds_(ttl_seconds),
      ttl_(std::to_string(ttl_seconds)),
      channel_(release_channel(key_)) {}

bool AcquireWait::subscribe(const std::function<bool()> &interrupted) {
    if (subscriber_ && subscriber_->owner_pid() != process::current_pid()) {
        // Forked while waiting (a signal handler may fork): the parent's subscription is not
        // ours to read; the inherited socket is closed without a word.
        subscriber_.reset();
        subscribed_ = false;
        subscribe_until_.reset();
    }
    if (subscribed_) return true;
    if (!subscriber_) {
        subscriber_ = std::make_unique<Connection>(params_);
        subscriber_->send({"SUBSCRIBE", channel_});
        subscribe_until_ = Deadline::after(std::max(0.001, params_.read_timeout));
    }
    for (;;) {
        Reply r = subscriber_->buffered_reply();
        if (r) {
            if (is_subscribe_ack(r.get())) {
                subscribed_ = true;
                return true;
            }
            continue;
        }
        int left = subscribe_until_->remaining_ms(1 << 30);
        ReadResult read =
            left > 0 ? subscriber_->read_some(left, interrupted) : ReadResult::Timeout;
        if (read == ReadResult::Interrupted) return false;
        if (read == ReadResult::Timeout)
            subscriber_->fail("no reply to SUBSCRIBE within the read timeout");
    }
}

WaitOutcome AcquireWait::wait(Connection &conn, const Deadline &deadline,
                              const std::function<bool()> &interrupted, WaitStats *stats) {
    WaitStats local;
    WaitStats &st = stats ? *stats : local;
    if (!first_attempt_done_) {
        first_attempt_done_ = true;
        ++st.attempts;
        if (try_acquire(conn, key_, value_, ttl_seconds_)) return WaitOutcome::Acquired;
        if (deadline.expired()) return WaitOutcome::TimedOut;
    }
    if (interrupted && interrupted()) return WaitOutcome::Interrupted;
    // Subscribe before the next attempt, so a release after that attempt cannot go unseen.
    if (!subscribe(interrupted)) return WaitOutcome::Interrupted;

    for (;;) {
        ++st.attempts;
        // SET NX EX and PTTL in one round trip: the expiry tells when to try again.
        auto replies = conn.pipeline({{"SET", key_, value_, "NX", "EX", ttl_}, {"PTTL", key_}});
        if (reply_is_status(replies[0].get(), "OK")) return WaitOutcome::Acquired;
        if (reply_is_error(replies[0].get())) server_error(conn, "SET NX EX", replies[0].get());
        if (deadline.expired()) return WaitOutcome::TimedOut;
        if (interrupted && interrupted()) return WaitOutcome::Interrupted;
        long long pttl = reply_is_integer(replies[1].get()) ? reply_integer(replies[1].get()) : -1;

        int wait_ms = deadline.remaining_ms(poll_ms_);
        if (pttl >= 0 && pttl + 1 < wait_ms) wait_ms = static_cast<int>(pttl + 1);
        if (pttl == -2) wait_ms = 0;  // already gone: try again at once
        bool notified = false;
        auto until = Deadline::after(wait_ms / 1000.0);
        while (!notified) {
            Reply r = subscriber_->buffered_reply();
            if (r) {
                if (is_message(r.get())) notified = true;
                continue;
            }
            int left = until.remaining_ms(wait_ms);
            if (left <= 0) break;
            ReadResult read = subscriber_->read_some(left, interrupted);
            if (read == ReadResult::Interrupted) return WaitOutcome::Interrupted;
            if (read == ReadResult::Timeout) break;
        }
        if (notified) {
            ++st.notifications;
            // Drain further notifications already received.
            while (Reply extra = subscriber_->buffered_reply()) {
            }
            poll_ms_ = 5;
        } else {
            poll_ms_ = std::min(poll_ms_ * 2, 100);
        }
    }
}

WaitOutcome acquire_waiting(Connection &conn, const ConnectionParams &params, std::string_view key,
                            std::string_view value, long long ttl_seconds, const Deadline &deadline,
                            const std::function<bool()> &interrupted, WaitStats *stats) {
    AcquireWait wait(params, std::string(key), std::string(value), ttl_seconds);
    return wait.wait(conn, deadline, interrupted, stats);
}

}  // namespace nativelock::redis
