#include "redis/lock.hpp"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <map>
#include <set>
#include <thread>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/process.hpp"
#include "common/random.hpp"

namespace nativelock::redis {

// Digests are checked against SCRIPT LOAD by tests/core/redis_lock_test.cpp.
//
// The queue scripts share three pieces: prune() drops waiters whose lease ran out (server time;
// TIME before writes needs effects replication on servers older than 5), listeners() counts a
// wake channel's subscribers on this server (PUBSUB NUMSUB: exact subscribers only, where
// PUBLISH's count would also take in any PSUBSCRIBE pattern that matches, a monitoring tool's,
// and so grant the key to a dead waiter; nil where the server refuses it: an ACL, a renamed
// command), and handoff() gives the key to a waiter. Its member is "<ttl>|<wake channel>|<value>";
// a waiter that takes grants names its channel as "<channel>/<wait id>". A channel without
// subscribers (the waiter's process is gone): the next waiter is tried, at no cost. A waiter
// that takes grants, with a subscriber: the key is set to its value with its whole TTL and
// "+<wait id>|<value>" is published. Any other (polling alone, fencing, a long TTL, an older
// nativelock; or NUMSUB refused): the key for a claim window and its value on its channel. A
// malformed member is dropped. (Every redis.call() inside a script costs the server 1-4 µs, more
// than most commands themselves, so the scripts make as few as they can.)
#define NL_QUEUE_LUA                                                                            \
    "local function prune() "                                                                   \
    "if redis.replicate_commands then redis.replicate_commands() end "                          \
    "local t = redis.call(\"time\") "                                                           \
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "                    \
    "local dead = redis.call(\"zrangebyscore\",KEYS[3],\"-inf\",now) "                          \
    "for _,m in ipairs(dead) do redis.call(\"zrem\",KEYS[2],m) redis.call(\"zrem\",KEYS[3],m) " \
    "end "                                                                                      \
    "return t, now end "                                                                        \
    "local function listeners(channel) "                                                        \
    "local r = redis.pcall(\"pubsub\",\"numsub\",channel) "                                     \
    "if type(r) ~= \"table\" or r.err then return nil end "                                     \
    "return tonumber(r[2]) end "                                                                \
    "local function handoff(head, claim) "                                                      \
    "local ttl, channel, value = string.match(head, \"^(%d+)|([^|]*)|(.*)$\") "                 \
    "redis.call(\"zrem\",KEYS[2],head) redis.call(\"zrem\",KEYS[3],head) "                      \
    "if not value or #ttl > 10 or string.sub(ttl,1,1) == \"0\" then return false end "          \
    "local base, id = string.match(channel, \"^(.+)/(%w+)$\") "                                 \
    "local target = base or channel "                                                           \
    "local n = nil "                                                                            \
    "if channel ~= \"-\" then n = listeners(target) end "                                       \
    "if n == 0 then return false end "                                                          \
    "if id and n then "                                                                         \
    "redis.call(\"set\",KEYS[1],value,\"px\",ttl .. \"000\") "                                  \
    "redis.call(\"publish\",base,\"+\" .. id .. \"|\" .. value) "                               \
    "return true end "                                                                          \
    "redis.call(\"set\",KEYS[1],value,\"px\",math.min(tonumber(claim),tonumber(ttl)*1000)) "    \
    "if channel ~= \"-\" then redis.call(\"publish\",target,value) end "                        \
    "return true end "

// Nobody queued (the common case) returns before the queue's functions are made: each is a
// closure built anew on every call, and skipping them takes ~1.5 µs off the uncontended cycle.
// ZCARD, not the head's ZRANGE, asks: an empty table costs redis-server 1.5-3.5 µs more.
const Script kReleaseScript = {
    "if redis.call(\"get\",KEYS[1]) ~= ARGV[1] then return 0 end "
    "if redis.call(\"zcard\",KEYS[2]) == 0 then "
    "redis.call(\"del\",KEYS[1]) return 1 end " NL_QUEUE_LUA
    "prune() "
    "local head = redis.call(\"zrange\",KEYS[2],0,0)[1] "
    "while head do "
    "if handoff(head, ARGV[2]) then return 2 end "
    "head = redis.call(\"zrange\",KEYS[2],0,0)[1] "
    "end "
    "redis.call(\"del\",KEYS[1]) "
    "return 1",
    "1140c4fabc28f6031e322588416b4dc4b2a240e5"};

// KEYS=key,queue,alive,fence ARGV=value,ttl s,member,lease ms,ticket ("" at first),claim ms,
// fencing ("1"/"0"). → {1} (fencing: {1, token}) acquired (the key was free and nobody queued
// ahead, or it was handed to us: claimed with our TTL); → {0, pttl, ticket, place, present}:
// queued (place 0 is the head; present 1: our member was still in the queue, so nothing was
// handed to it since our last call: ZADD counts only members it added). A free key with a live
// queue ahead of us is handed to the queue's head.
const Script kQueuedAcquireScript = {
    NL_QUEUE_LUA
    "local t, now = prune() "
    "local v = redis.call(\"get\",KEYS[1]) "
    "local ours = v == ARGV[1] "
    "if not v then "
    "local head = redis.call(\"zrange\",KEYS[2],0,0)[1] "
    "while head and head ~= ARGV[3] and not handoff(head, ARGV[6]) do "
    "head = redis.call(\"zrange\",KEYS[2],0,0)[1] "
    "end "
    "if head == nil or head == ARGV[3] then "
    "redis.call(\"set\",KEYS[1],ARGV[1],\"ex\",ARGV[2]) ours = true "
    "end "
    "elseif ours then "
    "redis.call(\"expire\",KEYS[1],ARGV[2]) "
    "end "
    "if ours then "
    "redis.call(\"zrem\",KEYS[2],ARGV[3]) redis.call(\"zrem\",KEYS[3],ARGV[3]) "
    "if ARGV[7] == \"1\" then return {1, redis.call(\"incr\",KEYS[4])} end "
    "return {1} "
    "end "
    "local ticket = ARGV[5] "
    "if ticket == \"\" then "
    "ticket = string.format(\"%.0f\", tonumber(t[1]) * 1000000 + tonumber(t[2])) "
    "end "
    "local present = redis.call(\"zadd\",KEYS[2],ticket,ARGV[3]) == 0 and 1 or 0 "
    "redis.call(\"zadd\",KEYS[3],now + tonumber(ARGV[4]),ARGV[3]) "
    "redis.call(\"pexpire\",KEYS[2],4 * tonumber(ARGV[4])) "
    "redis.call(\"pexpire\",KEYS[3],4 * tonumber(ARGV[4])) "
    "return {0, redis.call(\"pttl\",KEYS[1]), ticket, redis.call(\"zrank\",KEYS[2],ARGV[3]), "
    "present}",
    "c138bae285e2cb16e373666da22af2a63b3e0615"};

// KEYS=key,queue,alive,fence ARGV=value,member,ttl s,mode,claim ms,fencing: leaves the queue. A
// key handed to us meanwhile is kept ("keep": claimed with our TTL, → 1, fencing: → its token) or
// passed on in the same script
// ("pass": to the next live waiter, else deleted, → 2); → 0 if it was not ours.
const Script kLeaveQueueScript = {
    NL_QUEUE_LUA
    "redis.call(\"zrem\",KEYS[2],ARGV[2]) redis.call(\"zrem\",KEYS[3],ARGV[2]) "
    "if redis.call(\"get\",KEYS[1]) ~= ARGV[1] then return 0 end "
    "if ARGV[4] == \"keep\" then redis.call(\"expire\",KEYS[1],ARGV[3]) "
    "if ARGV[6] == \"1\" then return redis.call(\"incr\",KEYS[4]) end "
    "return 1 end "
    "if redis.call(\"zcard\",KEYS[2]) > 0 then "
    "prune() "
    "local head = redis.call(\"zrange\",KEYS[2],0,0)[1] "
    "while head do "
    "if handoff(head, ARGV[5]) then return 2 end "
    "head = redis.call(\"zrange\",KEYS[2],0,0)[1] "
    "end "
    "end "
    "redis.call(\"del\",KEYS[1]) "
    "return 2",
    "42f2cfb6e5934cc8511a4927c32914954d82deea"};

#undef NL_QUEUE_LUA

const Script kFencedAcquireScript = {
    "if redis.call(\"set\",KEYS[1],ARGV[1],\"nx\",\"ex\",ARGV[2]) then "
    "return redis.call(\"incr\",KEYS[2]) end "
    "return 0",
    "25391a7234728f318ff2e315dfdb7703d417c4b5"};

const Script kRefreshScript = {
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"pexpire\",KEYS[1],ARGV[2]) "
    "else return 0 end",
    "36e94d1c6e02fcefaa7ee5d79eee614dbac55f10"};
// A renewal: like kRefreshScript, but never shortens (a renewal the server runs late, after a
// refresh to a longer TTL, must not cut it back).
const Script kExtendScript = {
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then "
    "local left = redis.call(\"pttl\",KEYS[1]) "
    "if left >= 0 and left < tonumber(ARGV[2]) then redis.call(\"pexpire\",KEYS[1],ARGV[2]) end "
    "return 1 else return 0 end",
    "a895629b184ec8b374d821fb4b675289ab0fe3e3"};
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

namespace {
constexpr std::string_view kQueuePrefix = "nativelock:queue:";
constexpr std::string_view kAlivePrefix = "nativelock:alive:";
constexpr std::string_view kFencePrefix = "nativelock:fence:";
}  // namespace

std::string fence_key(std::string_view key) {
    std::string k(kFencePrefix);
    k.append(key.data(), key.size());
    return k;
}

std::string queue_key(std::string_view key) {
    std::string k(kQueuePrefix);
    k.append(key.data(), key.size());
    return k;
}

std::string alive_key(std::string_view key) {
    std::string k(kAlivePrefix);
    k.append(key.data(), key.size());
    return k;
}

Reply run_script(Connection &conn, const Script &script, std::string_view key,
                 std::initializer_list<std::string_view> args) {
    return run_script(conn, script, {key}, args);
}

Reply run_script(Connection &conn, const Script &script,
                 std::initializer_list<std::string_view> keys,
                 std::initializer_list<std::string_view> args) {
    // On the stack: every script here has at most 3 keys and 6 arguments.
    constexpr std::size_t kInline = 16;
    std::string_view argv_inline[kInline];
    std::vector<std::string_view> argv_heap;
    const std::size_t argc = 3 + keys.size() + args.size();
    std::string_view *argv = argv_inline;
    if (argc > kInline) {
        argv_heap.resize(argc);
        argv = argv_heap.data();
    }
    const std::string key_count = std::to_string(keys.size());
    argv[0] = "EVALSHA";
    argv[1] = script.sha1;
    argv[2] = key_count;
    std::copy(keys.begin(), keys.end(), argv + 3);
    std::copy(args.begin(), args.end(), argv + 3 + keys.size());
    Reply r = conn.command(argv, argc);
    if (reply_is_error(r.get()) && reply_string(r.get()).substr(0, 8) == "NOSCRIPT") {
        argv[0] = "EVAL";
        argv[1] = script.source;
        r = conn.command(argv, argc);
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

long long try_acquire_fenced(Connection &conn, std::string_view key, std::string_view value,
                             long long ttl_seconds) {
    const std::string ttl = std::to_string(ttl_seconds);
    const std::string fence = fence_key(key);
    Reply r = run_script(conn, kFencedAcquireScript, {key, std::string_view(fence)}, {value, ttl});
    if (!reply_is_integer(r.get()))
        throw ProtocolError("Redis at " + conn.params().describe() +
                            ": unexpected reply to the fenced acquire script");
    return reply_integer(r.get());
}

bool release(Connection &conn, std::string_view key, std::string_view value) {
    // queue_key(key) and alive_key(key) in one allocation.
    std::string keys;
    keys.reserve(kQueuePrefix.size() + kAlivePrefix.size() + 2 * key.size());
    keys.append(kQueuePrefix).append(key).append(kAlivePrefix).append(key);
    const std::string_view queue(keys.data(), kQueuePrefix.size() + key.size());
    const std::string_view alive(keys.data() + queue.size(), kAlivePrefix.size() + key.size());
    const std::string claim = std::to_string(kClaimWindowMs);
    Reply r = run_script(conn, kReleaseScript, {key, queue, alive}, {value, claim});
    return reply_integer(r.get()) >= 1;
}

bool refresh(Connection &conn, std::string_view key, std::string_view value, long long ttl_ms) {
    std::string ttl = std::to_string(ttl_ms);
    Reply r = run_script(conn, kRefreshScript, key, {value, ttl});
    return reply_integer(r.get()) == 1;
}

bool extend_at_least(Connection &conn, std::string_view key, std::string_view value,
                     long long ttl_ms) {
    std::string ttl = std::to_string(ttl_ms);
    Reply r = run_script(conn, kExtendScript, key, {value, ttl});
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

std::optional<std::string> current_value(Connection &conn, std::string_view key) {
    Reply r = conn.command({"GET", key});
    if (reply_is_error(r.get())) server_error(conn, "GET", r.get());
    if (reply_is_nil(r.get())) return std::nullopt;
    return std::string(reply_string(r.get()));
}

bool force_release(Connection &conn, std::string_view key) {
    // The release script with the holder's own value: waiters are handed the key as after any
    // release. A holder that changed in between (released, expired, handed over) is read again.
    for (int round = 0; round < 100; ++round) {
        std::optional<std::string> holder = current_value(conn, key);
        if (!holder) return round > 0;
        if (release(conn, key, *holder)) return true;
    }
    // Contended beyond reason: plain DEL (waiters notice on their poll).
    Reply r = conn.command({"DEL", key});
    if (reply_is_error(r.get())) server_error(conn, "DEL", r.get());
    return reply_integer(r.get()) > 0;
}

namespace {

// The live subscribers, for the atfork child handler. Guarded by a mutex that fork() itself
// takes (prepare) and releases (parent, child), so the child never inherits it locked.
std::mutex subscribers_mutex;
std::set<Subscriber *> &live_subscribers() {
    static auto *live = new std::set<Subscriber *>();  // never destroyed: atfork may run late
    return *live;
}

void close_subscribers_in_child() noexcept {
    for (Subscriber *sub : live_subscribers())
        if (sub->conn) sub->conn->close_inherited_socket();
    subscribers_mutex.unlock();
}

std::once_flag subscribers_atfork_registered;

}  // namespace

Subscriber::Subscriber() {
    std::call_once(subscribers_atfork_registered, [] {
        pthread_atfork([] { subscribers_mutex.lock(); }, [] { subscribers_mutex.unlock(); },
                       close_subscribers_in_child);
    });
    std::lock_guard<std::mutex> guard(subscribers_mutex);
    live_subscribers().insert(this);
}

Subscriber::~Subscriber() {
    std::lock_guard<std::mutex> guard(subscribers_mutex);
    live_subscribers().erase(this);
}

Subscriber *SubscriberPool::get(const ConnectionParams &params,
                                const std::function<bool()> &interrupted) {
    const std::string &key = params.pool_key();
    const auto now = Clock::now();
    Subscriber *sub = subscribers_.find(key, now);  // first: now it counts as used
    subscribers_.close_idle_on_access(now);
    if (sub && (sub->conn->owner() != process::current_tag() || !sub->conn->healthy())) {
        // Inherited across fork (the parent's subscription is not ours to read; the socket is
        // closed without a word) or broken.
        subscribers_.drop(key);
        sub = nullptr;
    }
    if (!sub) {
        auto fresh = std::make_unique<Subscriber>();
        fresh->conn = std::make_unique<Connection>(params);
        fresh->channel = "nativelock:wake:" + random::hex_token(12);
        sub = &subscribers_.add(key, std::move(fresh), now);
        sub->conn->send({"SUBSCRIBE", sub->channel});
        sub->subscribe_until = Deadline::after(std::max(0.001, params.read_timeout));
    }
    sub->conn->set_read_timeout(params.read_timeout);
    while (!sub->subscribed) {
        Reply r = sub->conn->buffered_reply();
        if (r) {
            if (is_subscribe_ack(r.get())) sub->subscribed = true;
            // Refused (an ACL without pub/sub, a proxy): no use waiting for an ack.
            if (reply_is_error(r.get()))
                sub->conn->fail("SUBSCRIBE refused: " + std::string(reply_string(r.get())));
            continue;
        }
        int left = sub->subscribe_until->remaining_ms(1 << 30);
        ReadResult read = left > 0 ? sub->conn->read_some(left, interrupted) : ReadResult::Timeout;
        if (read == ReadResult::Interrupted) return nullptr;
        if (read == ReadResult::Timeout)
            sub->conn->fail("no reply to SUBSCRIBE within the read timeout");
    }
    return sub;
}

void SubscriberPool::drop(const ConnectionParams &params) {
    subscribers_.drop(params.pool_key());
}

WakeChannel::WakeChannel(const ConnectionParams &params, SubscriberPool *subscribers)
    : params_(params),
      own_subscribers_(subscribers ? nullptr : std::make_unique<SubscriberPool>()),
      subscribers_(subscribers ? subscribers : own_subscribers_.get()),
      in_use_(subscribers_->pin(params_)) {}

Subscriber *WakeChannel::subscriber(const std::function<bool()> &interrupted,
                                    bool &was_interrupted) {
    was_interrupted = false;
    if (failed_) return nullptr;
    try {
        Subscriber *sub = subscribers_->get(params_, interrupted);
        was_interrupted = !sub;
        return sub;
    } catch (const ConnectionError &) {
        // Polling alone for the rest of this wait: a subscriber that cannot be had is not tried
        // again on every poll.
        subscribers_->drop(params_);
        failed_ = true;
        return nullptr;
    }
}

int WakeChannel::interval_ms(bool head, long long wake_in_ms, const Deadline &deadline) const {
    // Only the head can take a lock freed without a hand-over (an expiry, a client of the
    // original protocol): it polls briskly. The others are woken by the hand-over itself and
    // poll only to renew their place, so a long queue does not keep the server busy.
    int wait_ms = deadline.remaining_ms(head ? poll_ms_ : kQueuedPollMs);
    if (head && wake_in_ms >= 0 && wake_in_ms + 1 < wait_ms)
        wait_ms = static_cast<int>(wake_in_ms + 1);
    return wait_ms;
}

WakeWait WakeChannel::sleep(Subscriber *sub, std::string_view value, int wait_ms,
                            const std::function<bool()> &interrupted, WaitStats &stats,
                            std::string_view grant) {
    WakeWait result = WakeWait::Elapsed;
    if (!sub) {
        // Polling alone: wait on the command connection's socket, which stays silent.
        if (wait_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
    } else {
        try {
            auto until = Deadline::after(wait_ms / 1000.0);
            while (result == WakeWait::Elapsed) {
                Reply m = sub->conn->buffered_reply();
                if (m) {
                    // Only a wake or a grant for this wait counts; others are stale, or a
                    // nested wait's (that one polls, or finds the key ours on its next call).
                    if (is_message(m.get()) && reply_elements(m.get()) >= 3) {
                        std::string_view said = reply_string(reply_element(m.get(), 2));
                        if (said == value) result = WakeWait::Woken;
                        if (!grant.empty() && said == grant) result = WakeWait::Granted;
                    }
                    continue;
                }
                int left = until.remaining_ms(wait_ms);
                if (left <= 0) break;
                ReadResult read = sub->conn->read_some(left, interrupted);
                if (read == ReadResult::Interrupted) return WakeWait::Interrupted;
                if (read == ReadResult::Timeout) break;
            }
        } catch (const ConnectionError &) {
            subscribers_->drop(params_);
        }
    }
    if (result == WakeWait::Woken || result == WakeWait::Granted) {
        ++stats.notifications;
        poll_ms_ = 5;
    } else {
        poll_ms_ = std::min(poll_ms_ * 2, 100);
    }
    return result;
}

namespace {
// The keys this process last had to wait for, with the server they live on. Its next
// acquisition of one joins the queue at once: the SET NX it would try first fails while others
// wait, a round trip and a wake-up for nothing on every turn of a hot lock; and the queue's
// script takes a key it finds free with nobody queued just as well. A key is forgotten when an
// acquisition finds it free. Not while another wait of this process for the key is under way
// (a signal handler's, during the wait it interrupted): the queue would hand a free key to
// that suspended wait, and the handler's lock would wait for it. Only a hint, bounded (emptied
// of idle keys when full). Its mutex is held across fork (threaded PHP).
class ContendedKeys {
  public:
    // Whether the wait for `key` that is the only one under way may skip its SET NX.
    bool join_at_once(const std::string &key) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = keys_.find(key);
        return it != keys_.end() && it->second.contended && it->second.waits == 1;
    }
    void note(const std::string &key, bool contended) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (contended) make_room();
        if (contended || keys_.count(key)) keys_[key].contended = contended;
        forget_if_idle(key);
    }
    // Held across fork: the child never finds it taken by a thread that does not exist there.
    void lock_for_fork() { mutex_.lock(); }
    void unlock_after_fork() { mutex_.unlock(); }
    // A wait for `key` begins (to be ended with end_wait()).
    void begin_wait(const std::string &key) {
        std::lock_guard<std::mutex> lock(mutex_);
        make_room();
        ++keys_[key].waits;
    }
    void end_wait(const std::string &key) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = keys_.find(key);
        if (it == keys_.end()) return;
        if (it->second.waits > 0) --it->second.waits;
        forget_if_idle(key);
    }

  private:
    struct Entry {
        bool contended = false;
        int waits = 0;
    };
    void make_room() {
        if (keys_.size() < kMaxKeys) return;
        for (auto it = keys_.begin(); it != keys_.end();)
            it = it->second.waits == 0 ? keys_.erase(it) : std::next(it);
    }
    void forget_if_idle(const std::string &key) {
        auto it = keys_.find(key);
        if (it != keys_.end() && !it->second.contended && it->second.waits == 0) keys_.erase(it);
    }

    static constexpr std::size_t kMaxKeys = 1024;
    std::mutex mutex_;
    std::map<std::string, Entry> keys_;
};

ContendedKeys &contended_keys() {
    static ContendedKeys *keys = [] {
        static std::once_flag registered;
        std::call_once(registered, [] {
            ::pthread_atfork([] { contended_keys().lock_for_fork(); },
                             [] { contended_keys().unlock_after_fork(); },
                             [] { contended_keys().unlock_after_fork(); });
        });
        return new ContendedKeys();  // never destroyed: used until exit
    }();
    return *keys;
}
}  // namespace

AcquireWait::AcquireWait(const ConnectionParams &params, std::string key, std::string value,
                         long long ttl_seconds, SubscriberPool *subscribers, bool fencing)
    : fencing_(fencing),
      key_(std::move(key)),
      value_(std::move(value)),
      ttl_seconds_(ttl_seconds),
      ttl_(std::to_string(ttl_seconds)),
      queue_(queue_key(key_)),
      alive_(alive_key(key_)),
      fence_(fence_key(key_)),
      contention_key_(params.pool_key() + '\n' + key_),
      wake_(params, subscribers) {}

AcquireWait::~AcquireWait() {
    end_wait();
    if (!queued_) return;
    try {
        wake_.drop_subscriber();
    } catch (...) {
    }
}

void AcquireWait::end_wait() {
    if (!counted_) return;
    counted_ = false;
    contended_keys().end_wait(contention_key_);
}

void AcquireWait::new_id() {
    id_ = random::hex_token(8);
    grant_.assign("+").append(id_).append("|").append(value_);
}

bool AcquireWait::leave_queue_keeping(Connection &conn) {
    if (!queued_) return false;
    const std::string claim = std::to_string(kClaimWindowMs);
    sent_ = renew::Instant::now();
    Reply r = run_script(conn, kLeaveQueueScript, {key_, queue_, alive_, fence_},
                         {value_, member_, ttl_, "keep", claim, fencing_ ? "1" : "0"});
    queued_ = false;
    const long long got = reply_integer(r.get());
    if (got >= 1 && fencing_) token_ = got;
    return fencing_ ? got >= 1 : got == 1;
}

void AcquireWait::leave_queue(Connection &conn) {
    end_wait();
    if (!queued_) return;
    // A key handed to us meanwhile goes on to the next waiter in the same script: it is never
    // left claimed by a wait that gave up.
    const std::string claim = std::to_string(kClaimWindowMs);
    run_script(conn, kLeaveQueueScript, {key_, queue_, alive_, fence_},
               {value_, member_, ttl_, "pass", claim, "0"});
    queued_ = false;
}

WaitOutcome AcquireWait::wait(Connection &conn, const Deadline &deadline,
                              const std::function<bool()> &interrupted, WaitStats *stats) {
    // Counted as under way from the first call to the end of the wait (an interrupted wait,
    // resumed later, is still under way while the caller runs PHP code).
    if (!counted_) {
        contended_keys().begin_wait(contention_key_);
        counted_ = true;
    }
    const WaitOutcome outcome = wait_for_key(conn, deadline, interrupted, stats);
    if (outcome == WaitOutcome::Interrupted) return outcome;
    contended_keys().note(contention_key_, outcome == WaitOutcome::TimedOut || waited_);
    end_wait();
    return outcome;
}

WaitOutcome AcquireWait::wait_for_key(Connection &conn, const Deadline &deadline,
                                      const std::function<bool()> &interrupted, WaitStats *stats) {
    WaitStats local;
    WaitStats &st = stats ? *stats : local;
    if (!first_attempt_done_ && !deadline.expired() &&
        contended_keys().join_at_once(contention_key_))
        first_attempt_done_ = true;  // straight into the queue (ContendedKeys)
    if (!first_attempt_done_) {
        first_attempt_done_ = true;
        ++st.attempts;
        sent_ = renew::Instant::now();
        if (fencing_) {
            token_ = try_acquire_fenced(conn, key_, value_, ttl_seconds_);
            if (token_ > 0) return WaitOutcome::Acquired;
        } else if (try_acquire(conn, key_, value_, ttl_seconds_)) {
            return WaitOutcome::Acquired;
        }
        waited_ = true;
        if (deadline.expired()) return WaitOutcome::TimedOut;
    }
    const std::string lease = std::to_string(kWaiterLeaseMs);
    const std::string claim = std::to_string(kClaimWindowMs);
    bool rejoin = false;
    // Each call, a wait resumed after PHP ran its signal handlers too, sends its script before
    // it honours an interrupt: every call tries the key, renews our place and looks at the
    // deadline. Under signals that come faster than the handlers return, a call that returned
    // at once would make no progress, and the wait would outlast its deadline.
    const std::function<bool()> not_yet;
    bool script_sent = false;
    for (;;) {
        const std::function<bool()> &may_interrupt = script_sent ? interrupted : not_yet;
        if (may_interrupt && may_interrupt()) return WaitOutcome::Interrupted;
        // Subscribed before joining the queue, so a hand-over to us cannot go unseen.
        bool was_interrupted = false;
        Subscriber *sub = wake_.subscriber(may_interrupt, was_interrupted);
        if (was_interrupted) return WaitOutcome::Interrupted;
        // Grants (the whole TTL at once) only without fencing (its token needs a call anyway)
        // and for TTLs up to kGrantMaxTtlSeconds: a waiter whose death the server cannot see
        // (a stopped process, a lost host) costs at most that if its turn comes.
        const bool takes_grants = sub && !fencing_ && ttl_seconds_ <= kGrantMaxTtlSeconds;
        if (takes_grants && id_.empty()) new_id();
        std::string member = ttl_ + "|";
        if (takes_grants) {
            member.append(sub->channel).append("/").append(id_);
        } else {
            member.append(WakeChannel::channel(sub));
        }
        member.append("|").append(value_);
        // A new member (the subscriber was replaced, or a new id): the old place goes; a key
        // handed to it meanwhile is ours.
        if (queued_ && member != member_ && leave_queue_keeping(conn)) return WaitOutcome::Acquired;
        member_ = std::move(member);

        ++st.attempts;
        const bool was_queued = queued_;
        // Queued from the moment the script is sent: if its reply is lost (a timeout), the
        // place may exist, and ~AcquireWait must close the subscriber it names.
        queued_ = true;
        sent_ = renew::Instant::now();
        Reply r = run_script(conn, kQueuedAcquireScript, {key_, queue_, alive_, fence_},
                             {value_, ttl_, member_, lease, ticket_, claim, fencing_ ? "1" : "0"});
        script_sent = true;
        if (reply_elements(r.get()) >= 1 && reply_integer(reply_element(r.get(), 0)) == 1) {
            queued_ = false;
            if (fencing_) {
                if (reply_elements(r.get()) < 2 || !reply_is_integer(reply_element(r.get(), 1)))
                    throw ProtocolError("Redis at " + conn.params().describe() +
                                        ": no fencing token in the acquire script's reply");
                token_ = reply_integer(reply_element(r.get(), 1));
            }
            return WaitOutcome::Acquired;
        }
        queued_ = true;
        waited_ = true;
        long long pttl =
            reply_elements(r.get()) >= 2 ? reply_integer(reply_element(r.get(), 1)) : -1;
        if (reply_elements(r.get()) >= 3)
            ticket_ = std::string(reply_string(reply_element(r.get(), 2)));
        if (was_queued && !id_.empty() && reply_elements(r.get()) >= 5 &&
            reply_integer(reply_element(r.get(), 4)) == 0) {
            // Our place was gone (handed the key, which was then taken from us again: a force
            // release, an expiry; or pruned): a grant for it may still be on its way, or unread.
            // A new id makes it stale, at once (before anything can return): the next call
            // replaces the member, keeping the place (ticket).
            new_id();
            rejoin = true;
        }
        if (deadline.expired()) {
            // The final attempt was the one above; whatever was handed over since is ours.
            return leave_queue_keeping(conn) ? WaitOutcome::Acquired : WaitOutcome::TimedOut;
        }
        if (interrupted && interrupted()) return WaitOutcome::Interrupted;
        if (rejoin) {
            rejoin = false;
            continue;
        }

        const bool head = reply_elements(r.get()) >= 4 &&
                          reply_is_integer(reply_element(r.get(), 3)) &&
                          reply_integer(reply_element(r.get(), 3)) == 0;
        int wait_ms = wake_.interval_ms(head, pttl, deadline);
        if (pttl == -2) wait_ms = 0;  // gone meanwhile: try again at once
        WakeWait woke = wake_.sleep(sub, value_, wait_ms, interrupted, st,
                                    takes_grants ? std::string_view(grant_) : std::string_view());
        if (woke == WakeWait::Interrupted) return WaitOutcome::Interrupted;
        // Granted: the key is ours with our TTL.
        if (woke == WakeWait::Granted) {
            queued_ = false;
            return WaitOutcome::Acquired;
        }
    }
}

WaitOutcome acquire_waiting(Connection &conn, const ConnectionParams &params, std::string_view key,
                            std::string_view value, long long ttl_seconds, const Deadline &deadline,
                            const std::function<bool()> &interrupted, WaitStats *stats,
                            long long *token) {
    AcquireWait wait(params, std::string(key), std::string(value), ttl_seconds, nullptr,
                     token != nullptr);
    WaitOutcome outcome = wait.wait(conn, deadline, interrupted, stats);
    if (token) *token = outcome == WaitOutcome::Acquired ? wait.token() : 0;
    if (outcome == WaitOutcome::Interrupted) wait.leave_queue(conn);
    return outcome;
}

}  // namespace nativelock::redis
