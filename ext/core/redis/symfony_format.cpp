#include "redis/symfony_format.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace nativelock::redis::symfony {

// Digests are checked against SCRIPT LOAD by tests/core/redis_symfony_test.cpp.
//
// Every script starts like Symfony's: a key of type string is refused, then `now` comes from
// TIME (effects replication, needed for writes after TIME before Redis 5) and expired members
// are dropped.
#define NL_SF_HEAD                                                     \
    "if redis.replicate_commands then redis.replicate_commands() end " \
    "local function clock() local t = redis.call(\"time\") "           \
    "return t, tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end "

// Symfony's PEXPIREAT to the latest score.
#define NL_SF_EXPIRE                                                       \
    "local function expire_at_max() "                                      \
    "local max = redis.call(\"zrevrange\",KEYS[1],0,0,\"withscores\")[2] " \
    "if max then redis.call(\"pexpireat\",KEYS[1],max) end end "

// The queue (KEYS[2], scored by arrival) and the waiters' leases (KEYS[3], scored by expiry).
// A waiter's member is "<w|r>|<ttl ms>|<wake channel>|<token>". prune() drops waiters whose
// lease ran out; grant() hands the lock to the head of the queue while it can have it (a writer
// if nobody else holds the lock, readers up to the first writer while nobody writes): its token
// goes into the set scored by the claim window (a promotion keeps its read score if later), the
// waiter leaves the queue and is woken, unless it is `self` (the caller). Returns whether `self`
// got the lock. The caller has dropped expired members and checked the key is not a string.
#define NL_SF_QUEUE                                                                             \
    NL_SF_EXPIRE                                                                                \
    "local function prune(now) "                                                                \
    "local dead = redis.call(\"zrangebyscore\",KEYS[3],\"-inf\",now) "                          \
    "for _,m in ipairs(dead) do redis.call(\"zrem\",KEYS[2],m) redis.call(\"zrem\",KEYS[3],m) " \
    "end end "                                                                                  \
    "local function grant(now, claim, self) "                                                   \
    "local got = false "                                                                        \
    "while true do "                                                                            \
    "local head = redis.call(\"zrange\",KEYS[2],0,0)[1] "                                       \
    "if not head then return got end "                                                          \
    "local mode, ttl, channel, token = string.match(head, \"^([wr])|(%d+)|([^|]*)|(.*)$\") "    \
    "if token then "                                                                            \
    "local s = redis.call(\"zscore\",KEYS[1],token) "                                           \
    "if mode == \"w\" then "                                                                    \
    "if redis.call(\"zcard\",KEYS[1]) > (s and 1 or 0) then return got end "                    \
    "elseif redis.call(\"zscore\",KEYS[1],\"__write__\") then return got end "                  \
    "local score = now + math.min(tonumber(claim), tonumber(ttl)) "                             \
    "if s and tonumber(s) > score then score = tonumber(s) end "                                \
    "redis.call(\"zadd\",KEYS[1],score,token) "                                                 \
    "if mode == \"w\" then redis.call(\"zadd\",KEYS[1],score,\"__write__\") end "               \
    "expire_at_max() "                                                                          \
    "if head == self then got = true else redis.call(\"publish\",channel,token) end "           \
    "end "                                                                                      \
    "redis.call(\"zrem\",KEYS[2],head) redis.call(\"zrem\",KEYS[3],head) "                      \
    "if token and mode == \"w\" then return got end "                                           \
    "end end "

#define NL_SF_REFUSE_STRING "if redis.call(\"type\",KEYS[1]).ok == \"string\" then return 0 end "
#define NL_SF_NOW "local t, now = clock() "
#define NL_SF_DROP_EXPIRED "redis.call(\"zremrangebyscore\",KEYS[1],\"-inf\",now) "

const Script kSaveScript = {
    NL_SF_HEAD NL_SF_EXPIRE NL_SF_REFUSE_STRING NL_SF_NOW NL_SF_DROP_EXPIRED
    "local ttl = tonumber(ARGV[2]) "
    "if redis.call(\"zscore\",KEYS[1],ARGV[1]) then "
    "if not redis.call(\"zscore\",KEYS[1],\"__write__\") and redis.call(\"zcard\",KEYS[1]) > 1 "
    "then return 0 end "
    "elseif redis.call(\"zcard\",KEYS[1]) > 0 then return 0 end "
    "redis.call(\"zadd\",KEYS[1],now + ttl,ARGV[1]) "
    "redis.call(\"zadd\",KEYS[1],now + ttl,\"__write__\") "
    "expire_at_max() "
    "return 1",
    "94b4811bcbff5b3ef2ee2bda9c4e6a2100a5fdad"};

const Script kSaveReadScript = {
    NL_SF_HEAD NL_SF_QUEUE NL_SF_REFUSE_STRING NL_SF_NOW NL_SF_DROP_EXPIRED
    "local ttl = tonumber(ARGV[2]) "
    "if not redis.call(\"zscore\",KEYS[1],ARGV[1]) and "
    "redis.call(\"zscore\",KEYS[1],\"__write__\") "
    "then return 0 end "
    "redis.call(\"zadd\",KEYS[1],now + ttl,ARGV[1]) "
    "local demoted = redis.call(\"zrem\",KEYS[1],\"__write__\") "
    "expire_at_max() "
    "if demoted == 1 and redis.call(\"zcard\",KEYS[2]) > 0 then "
    "prune(now) grant(now, ARGV[3], \"\") end "
    "return 1",
    "1f4464a1b1227eb1c42d04ec1be3ec282eef652b"};

const Script kPutOffScript = {
    NL_SF_HEAD NL_SF_EXPIRE NL_SF_REFUSE_STRING NL_SF_NOW NL_SF_DROP_EXPIRED
    "local ttl = tonumber(ARGV[2]) "
    "if not redis.call(\"zscore\",KEYS[1],ARGV[1]) then return 0 end "
    "redis.call(\"zadd\",KEYS[1],now + ttl,ARGV[1]) "
    "if redis.call(\"zscore\",KEYS[1],\"__write__\") then "
    "redis.call(\"zadd\",KEYS[1],now + ttl,\"__write__\") end "
    "expire_at_max() "
    "return 1",
    "b5c9471ac796084322c3afb9e3623eb8a40d2499"};

// A renewal: like kPutOffScript, but never moves an expiry earlier (a renewal the server runs
// late, after a refresh to a longer TTL, must not cut it back).
const Script kExtendScript = {
    NL_SF_HEAD NL_SF_EXPIRE NL_SF_REFUSE_STRING NL_SF_NOW NL_SF_DROP_EXPIRED
    "local later = now + tonumber(ARGV[2]) "
    "local mine = redis.call(\"zscore\",KEYS[1],ARGV[1]) "
    "if not mine then return 0 end "
    "if tonumber(mine) < later then redis.call(\"zadd\",KEYS[1],later,ARGV[1]) end "
    "local writer = redis.call(\"zscore\",KEYS[1],\"__write__\") "
    "if writer and tonumber(writer) < later then "
    "redis.call(\"zadd\",KEYS[1],later,\"__write__\") end "
    "expire_at_max() "
    "return 1",
    "07935c0bd7f248c51066b0817324c53ed0de36e7"};

const Script kDeleteScript = {
    NL_SF_HEAD NL_SF_QUEUE NL_SF_REFUSE_STRING
    "if not redis.call(\"zscore\",KEYS[1],ARGV[1]) then return 0 end "
    "redis.call(\"zrem\",KEYS[1],ARGV[1]) "
    "redis.call(\"zrem\",KEYS[1],\"__write__\") "
    "expire_at_max() "
    "if redis.call(\"zcard\",KEYS[2]) > 0 then " NL_SF_NOW NL_SF_DROP_EXPIRED
    "prune(now) grant(now, ARGV[2], \"\") end "
    "return 1",
    "21d16f1d93741371ba08c44cf00b0e418c79defb"};

const Script kExistsScript = {NL_SF_HEAD NL_SF_REFUSE_STRING NL_SF_NOW NL_SF_DROP_EXPIRED
                              "if redis.call(\"zscore\",KEYS[1],ARGV[1]) then return 1 end "
                              "return 0",
                              "785bb207fbf233ad661018304ef0113e736caf1e"};

// Read-only: no replication concern, nothing dropped.
const Script kRemainingScript = {
    "if redis.call(\"type\",KEYS[1]).ok ~= \"zset\" then return -2 end "
    "local s = redis.call(\"zscore\",KEYS[1],ARGV[1]) "
    "if not s then return -2 end "
    "local t = redis.call(\"time\") "
    "local left = tonumber(s) - (tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)) "
    "if left <= 0 then return -2 end "
    "return left",
    "03827275edc1c0e84ac28c1dcdf914d67dfea8fc"};

const Script kWriterScript = {
    "if redis.call(\"type\",KEYS[1]).ok ~= \"zset\" then return false end "
    "local w = redis.call(\"zscore\",KEYS[1],\"__write__\") "
    "if not w then return false end "
    "local t = redis.call(\"time\") "
    "if tonumber(w) <= tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) then "
    "return false end "
    "for _,m in ipairs(redis.call(\"zrangebyscore\",KEYS[1],w,w)) do "
    "if m ~= \"__write__\" then return m end end "
    "return false",
    "2c7f0c14ea4f2fa94e090d3150e6e816511053f0"};

const Script kForceRemoveScript = {NL_SF_HEAD NL_SF_QUEUE
                                   "local existed = redis.call(\"del\",KEYS[1]) "
                                   "if redis.call(\"zcard\",KEYS[2]) > 0 then " NL_SF_NOW
                                   "prune(now) grant(now, ARGV[1], \"\") end "
                                   "return existed",
                                   "8f9031045da4454c0c5104712e39dfe79d962528"};

// KEYS=key,queue,alive ARGV=token,ttl ms,member,lease ms,ticket ("" at first),claim ms,mode
// (w|r),previous member ("" if none). Places (or renews) us in the queue, hands the lock to the
// waiters at its head that can have it, and claims it with our TTL if we hold it now (handed
// over, or a promotion Symfony's save() allows).
// → {1} acquired; → {0, ms until the earliest expiry in the set (-1: none, -2: gone), ticket,
// place (0 = head), 1 if our token holds a read lock}.
const Script kQueuedAcquireScript = {
    NL_SF_HEAD NL_SF_QUEUE NL_SF_NOW
    "prune(now) "
    "if ARGV[8] ~= \"\" and ARGV[8] ~= ARGV[3] then "
    "redis.call(\"zrem\",KEYS[2],ARGV[8]) redis.call(\"zrem\",KEYS[3],ARGV[8]) end "
    "local ticket = ARGV[5] "
    "if ticket == \"\" then "
    "ticket = string.format(\"%.0f\", tonumber(t[1]) * 1000000 + tonumber(t[2])) end "
    "redis.call(\"zadd\",KEYS[2],ticket,ARGV[3]) "
    "local str = redis.call(\"type\",KEYS[1]).ok == \"string\" "
    "local held = false "
    "if not str then " NL_SF_DROP_EXPIRED
    "grant(now, ARGV[6], ARGV[3]) "
    "held = redis.call(\"zscore\",KEYS[1],ARGV[1]) "
    "local ok = held "
    "if held and ARGV[7] == \"w\" and not redis.call(\"zscore\",KEYS[1],\"__write__\") "
    "and redis.call(\"zcard\",KEYS[1]) > 1 then ok = false end "
    "if ok then "
    "local ttl = tonumber(ARGV[2]) "
    "redis.call(\"zadd\",KEYS[1],now + ttl,ARGV[1]) "
    "if ARGV[7] == \"w\" then redis.call(\"zadd\",KEYS[1],now + ttl,\"__write__\") "
    "else redis.call(\"zrem\",KEYS[1],\"__write__\") end "
    "expire_at_max() "
    "redis.call(\"zrem\",KEYS[2],ARGV[3]) redis.call(\"zrem\",KEYS[3],ARGV[3]) "
    "return {1} end "
    "end "
    "redis.call(\"zadd\",KEYS[3],now + tonumber(ARGV[4]),ARGV[3]) "
    "redis.call(\"pexpire\",KEYS[2],4 * tonumber(ARGV[4])) "
    "redis.call(\"pexpire\",KEYS[3],4 * tonumber(ARGV[4])) "
    "local wake = -2 "
    "if str then wake = redis.call(\"pttl\",KEYS[1]) else "
    "local first = redis.call(\"zrange\",KEYS[1],0,0,\"withscores\")[2] "
    "if first then wake = tonumber(first) - now end end "
    "return {0, wake, ticket, redis.call(\"zrank\",KEYS[2],ARGV[3]), held and 1 or 0}",
    "af83f254b421971a35a04594278286bce0ae47ff"};

// KEYS=key,queue,alive ARGV=token,member,held (1|0),mode (w|r),claim ms: leaves the queue. A
// lock handed to us meanwhile is passed on in the same script (→ 2): our token goes (unless it
// held a read lock before: then only the writer marker goes) and the next waiters are granted.
// → 0 if nothing had been handed to us.
const Script kLeaveQueueScript = {
    NL_SF_HEAD NL_SF_QUEUE
    "redis.call(\"zrem\",KEYS[2],ARGV[2]) redis.call(\"zrem\",KEYS[3],ARGV[2]) "
    "if redis.call(\"type\",KEYS[1]).ok ~= \"zset\" then return 0 end "
    "if not redis.call(\"zscore\",KEYS[1],ARGV[1]) then return 0 end "
    "if ARGV[3] == \"1\" then "
    "if ARGV[4] ~= \"w\" or not redis.call(\"zscore\",KEYS[1],\"__write__\") then return 0 end "
    "else redis.call(\"zrem\",KEYS[1],ARGV[1]) end "
    "if ARGV[4] == \"w\" then redis.call(\"zrem\",KEYS[1],\"__write__\") end "
    "expire_at_max() " NL_SF_NOW NL_SF_DROP_EXPIRED
    "prune(now) grant(now, ARGV[5], \"\") "
    "return 2",
    "e11c7a9419ffc8e2fe882d95551f454f378d7993"};

#undef NL_SF_HEAD
#undef NL_SF_EXPIRE
#undef NL_SF_QUEUE
#undef NL_SF_REFUSE_STRING
#undef NL_SF_NOW
#undef NL_SF_DROP_EXPIRED

namespace {

constexpr std::string_view kQueueSuffix = ":nativelock:queue";
constexpr std::string_view kAliveSuffix = ":nativelock:alive";

std::string check_ttl(long long ttl_ms) {
    if (ttl_ms < 1 || ttl_ms > kMaxTtlMs)
        throw InvalidArgument("a Symfony-format lock TTL must be 1 to " +
                              std::to_string(kMaxTtlMs) + " ms, got " + std::to_string(ttl_ms));
    return std::to_string(ttl_ms);
}

long long element_integer(const redisReply *r, std::size_t i, long long otherwise) {
    if (reply_elements(r) <= i || !reply_is_integer(reply_element(r, i))) return otherwise;
    return reply_integer(reply_element(r, i));
}

}  // namespace

std::string queue_key(std::string_view key) {
    std::string k(key);
    k.append(kQueueSuffix);
    return k;
}

std::string alive_key(std::string_view key) {
    std::string k(key);
    k.append(kAliveSuffix);
    return k;
}

long long ttl_ms_from_seconds(double ttl_seconds) {
    if (!(ttl_seconds > 0) || ttl_seconds * 1000 > static_cast<double>(kMaxTtlMs))
        throw InvalidArgument("a Symfony-format lock TTL must be more than 0 and at most " +
                              std::to_string(kMaxTtlMs / 1000) + " seconds");
    return static_cast<long long>(std::ceil(ttl_seconds * 1000));
}

bool save(Connection &conn, std::string_view key, std::string_view token, long long ttl_ms) {
    const std::string ttl = check_ttl(ttl_ms);
    return reply_integer(run_script(conn, kSaveScript, key, {token, ttl}).get()) == 1;
}

bool save_read(Connection &conn, std::string_view key, std::string_view token, long long ttl_ms) {
    const std::string ttl = check_ttl(ttl_ms);
    const std::string queue = queue_key(key), alive = alive_key(key);
    const std::string claim = std::to_string(kClaimWindowMs);
    Reply r = run_script(conn, kSaveReadScript, {key, queue, alive}, {token, ttl, claim});
    return reply_integer(r.get()) == 1;
}

bool put_off_expiration(Connection &conn, std::string_view key, std::string_view token,
                        long long ttl_ms) {
    const std::string ttl = check_ttl(ttl_ms);
    return reply_integer(run_script(conn, kPutOffScript, key, {token, ttl}).get()) == 1;
}

bool extend_at_least(Connection &conn, std::string_view key, std::string_view token,
                     long long ttl_ms) {
    const std::string ttl = check_ttl(ttl_ms);
    return reply_integer(run_script(conn, kExtendScript, key, {token, ttl}).get()) == 1;
}

bool remove(Connection &conn, std::string_view key, std::string_view token) {
    const std::string queue = queue_key(key), alive = alive_key(key);
    const std::string claim = std::to_string(kClaimWindowMs);
    Reply r = run_script(conn, kDeleteScript, {key, queue, alive}, {token, claim});
    return reply_integer(r.get()) == 1;
}

bool exists(Connection &conn, std::string_view key, std::string_view token) {
    return reply_integer(run_script(conn, kExistsScript, key, {token}).get()) == 1;
}

std::optional<long long> remaining_ms(Connection &conn, std::string_view key,
                                      std::string_view token) {
    long long ms = reply_integer(run_script(conn, kRemainingScript, key, {token}).get());
    if (ms <= 0) return std::nullopt;
    return ms;
}

std::optional<std::string> writer(Connection &conn, std::string_view key) {
    Reply r = run_script(conn, kWriterScript, key, {});
    if (reply_is_nil(r.get()) || reply_is_integer(r.get())) return std::nullopt;  // false → nil
    return std::string(reply_string(r.get()));
}

bool force_remove(Connection &conn, std::string_view key) {
    const std::string queue = queue_key(key), alive = alive_key(key);
    const std::string claim = std::to_string(kClaimWindowMs);
    Reply r = run_script(conn, kForceRemoveScript, {key, queue, alive}, {claim});
    return reply_integer(r.get()) == 1;
}

AcquireWait::AcquireWait(const ConnectionParams &params, std::string key, std::string token,
                         long long ttl_ms, bool shared, SubscriberPool *subscribers)
    : key_(std::move(key)),
      token_(std::move(token)),
      ttl_ms_(ttl_ms),
      ttl_(check_ttl(ttl_ms)),
      shared_(shared),
      queue_(queue_key(key_)),
      alive_(alive_key(key_)),
      wake_(params, subscribers) {}

void AcquireWait::leave_queue(Connection &conn) {
    if (!queued_) return;
    const std::string claim = std::to_string(kClaimWindowMs);
    run_script(conn, kLeaveQueueScript, {key_, queue_, alive_},
               {token_, member_, held_ ? "1" : "0", shared_ ? "r" : "w", claim});
    queued_ = false;
}

WaitOutcome AcquireWait::wait(Connection &conn, const Deadline &deadline,
                              const std::function<bool()> &interrupted, WaitStats *stats) {
    WaitStats local;
    WaitStats &st = stats ? *stats : local;
    if (!first_attempt_done_) {
        first_attempt_done_ = true;
        ++st.attempts;
        if (shared_ ? save_read(conn, key_, token_, ttl_ms_) : save(conn, key_, token_, ttl_ms_))
            return WaitOutcome::Acquired;
        if (deadline.expired()) return WaitOutcome::TimedOut;
    }
    const std::string lease = std::to_string(kWaiterLeaseMs);
    const std::string claim = std::to_string(kClaimWindowMs);
    const char *mode = shared_ ? "r" : "w";
    for (;;) {
        if (interrupted && interrupted()) return WaitOutcome::Interrupted;
        // Subscribed before joining the queue, so a hand-over cannot go unseen.
        bool was_interrupted = false;
        Subscriber *sub = wake_.subscriber(interrupted, was_interrupted);
        if (was_interrupted) return WaitOutcome::Interrupted;
        // A new wake channel (the subscriber was replaced) replaces our member in the same
        // script, keeping the ticket; a lock handed to the old member is in the set under our
        // token and claimed all the same.
        std::string previous = queued_ ? member_ : std::string();
        member_ = std::string(mode) + "|" + ttl_ + "|";
        member_.append(WakeChannel::channel(sub)).append("|").append(token_);

        ++st.attempts;
        Reply r = run_script(conn, kQueuedAcquireScript, {key_, queue_, alive_},
                             {token_, ttl_, member_, lease, ticket_, claim, mode, previous});
        if (element_integer(r.get(), 0, 0) == 1) {
            queued_ = false;
            return WaitOutcome::Acquired;
        }
        queued_ = true;
        const long long wake = element_integer(r.get(), 1, -1);
        if (reply_elements(r.get()) >= 3)
            ticket_ = std::string(reply_string(reply_element(r.get(), 2)));
        const bool head = element_integer(r.get(), 3, -1) == 0;
        if (element_integer(r.get(), 4, 0) == 1) held_ = true;
        if (deadline.expired()) {
            // The final attempt was the one above; a lock handed over since goes on.
            leave_queue(conn);
            return WaitOutcome::TimedOut;
        }
        if (interrupted && interrupted()) return WaitOutcome::Interrupted;

        // The head also wakes at the earliest expiry in the set.
        const int wait_ms = wake_.interval_ms(head, wake, deadline);
        if (wake_.sleep(sub, token_, wait_ms, interrupted, st) == WakeWait::Interrupted)
            return WaitOutcome::Interrupted;
    }
}

WaitOutcome acquire_waiting(Connection &conn, const ConnectionParams &params, std::string_view key,
                            std::string_view token, long long ttl_ms, bool shared,
                            const Deadline &deadline, const std::function<bool()> &interrupted,
                            WaitStats *stats) {
    AcquireWait wait(params, std::string(key), std::string(token), ttl_ms, shared);
    WaitOutcome outcome = wait.wait(conn, deadline, interrupted, stats);
    if (outcome == WaitOutcome::Interrupted) wait.leave_queue(conn);
    return outcome;
}

}  // namespace nativelock::redis::symfony
