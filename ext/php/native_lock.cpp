// Nativelock\Lock: one key and one token on a backend.
//
// Lifetime of a held lock: release(), or request end (the registry holds a reference, so an
// object nobody keeps stays held, as the seed classes do; SPEC §2), unless detach() handed it to
// another process. Fork: the process that took a lock is recorded; in any other process the
// lock is not held and nothing is sent on its behalf. A random token drawn before fork() is
// drawn anew by a child that acquires with the inherited object.
//
// User code (pcntl signal handlers) runs only between waits, with no C++ object of ours alive
// outside the frame that owns the wait; the object's state is fetched again afterwards (a
// handler may release, or even free, what the wait started from).
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "native_api.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>
#include <algorithm>

#include <unistd.h>

#include "common/deadline.hpp"
#include "common/process.hpp"
#include "common/random.hpp"
#include "common/renewer.hpp"
#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/record.hpp"
#include "interrupts.h"
#include "mysql/protocol.hpp"
#include "mysql/renewal.hpp"
#include "native_object.h"
#include "pdo_session.h"
#include "redis/lock.hpp"
#include "redis/renewal.hpp"
#include "redislock_object.h"
#include "request_registry.h"
#include "redis/symfony_format.hpp"

nativelock::file::OwnerRecord nativelock_filelock_owner_record(const std::string &name);

namespace nativelock::php::native {

zend_class_entry *lock_ce;

// MysqlBackend's sessions. Its own (pooled per connection parameters): GET_LOCK is re-entrant per
// session, so a session is never given a second lock on a name it holds (two Lock objects of one
// process must exclude each other); such a Lock gets a session of its own. An application's
// \PDO is one session whatever it holds: a second Lock on a name it holds waits (the protocol
// sees its own session holding the name) and never shares the first one's lock.
struct PooledSession {
    explicit PooledSession(const mysql::ConnectParams &params)
        : native(std::make_unique<mysql::NativeSession>(params)) {}
    explicit PooledSession(zend_object *pdo_object)
        : pdo(std::make_unique<sharedlock::PdoSession>(pdo_object)),
          pdo_owner(process::current_tag()) {}
    ~PooledSession() {
        // A forked child dropping the last reference: PHP would close the PDO (COM_QUIT on the
        // parent's socket, ending the parent's session and its locks).
        if (pdo && pdo_owner != process::current_tag())
            sharedlock::detach_inherited_pdo(pdo->pdo());
    }
    PooledSession(const PooledSession &) = delete;
    PooledSession &operator=(const PooledSession &) = delete;

    mysql::Session &session() { return native ? static_cast<mysql::Session &>(*native) : *pdo; }
    // A PDO does not reconnect by itself: its session is the same for the PDO's life.
    bool connected() const { return !native || native->connected(); }
    std::uint64_t generation() const { return native ? native->generation() : 0; }
    void ensure_connected() {
        if (native) native->ensure_connected();
    }
    process::Tag owner() const { return native ? native->owner() : pdo_owner; }
    bool is_pdo() const { return pdo != nullptr; }

    // Which acquisition (a serial of this process) holds a name on this session. On a PDO this
    // is what excludes two Locks of one process: the server would let the session take a name
    // it holds again. An entry a forceRelease() removed tells its Lock it lost the lock.
    bool holds(const std::string &key) const { return held.count(key) != 0; }
    bool owned_by(const std::string &key, std::uint64_t serial) const {
        auto it = held.find(key);
        return it != held.end() && it->second == serial;
    }
    void forget(const std::string &key, std::uint64_t serial) {
        if (owned_by(key, serial)) held.erase(key);
    }

    std::unique_ptr<mysql::NativeSession> native;
    std::unique_ptr<sharedlock::PdoSession> pdo;
    process::Tag pdo_owner;
    std::map<std::string, std::uint64_t> held;
};

struct MysqlSessions {
    std::unordered_map<std::string, std::vector<std::shared_ptr<PooledSession>>> by_params;
    // Alive while a backend or a Lock uses it, and it keeps the PDO alive: the address is the
    // same object's.
    std::unordered_map<zend_object *, std::weak_ptr<PooledSession>> by_pdo;
    std::uint64_t last_serial = 0;
};

namespace {

// TTLs at or above this many seconds (and INF) mean "no expiry": Redis keeps such a key ~31
// years, which is as good as none and cannot overflow (SPEC §2 numbers).
constexpr double kNoLimitSeconds = 1e9;

struct LockState {
    BackendConfig config;
    zend_object *backend = nullptr;  // referenced, for getBackend()
    std::string key;
    std::string token;
    bool token_random = false;
    process::Tag token_owner;
    bool constructed = false;
    // A wait of this object is in progress (a signal handler must not start another one).
    bool waiting = false;
    bool held = false;
    bool shared = false;
    bool detached = false;
    process::Tag held_owner;
    // nativelock.fencing as it was when acquire() began, and the acquisition's token (0: none).
    bool fencing = false;
    long long fence = 0;
    std::unique_ptr<file::LockFile> file;  // FileBackend
    std::shared_ptr<PooledSession> mysql;  // MysqlBackend: the session that holds it
    std::uint64_t mysql_generation = 0;    // … and its server session then
    std::uint64_t mysql_serial = 0;        // … and its entry in that session's `held`
    redis::Pool::Pin connection_in_use;    // Redis: the pooled connection stays open while held
    // setAutoRenew(): this lock's choice; nothing follows nativelock.auto_renew at acquire().
    std::optional<bool> auto_renew;
    // The TTL of the acquisition (none: no expiry), which the renewal extends to.
    std::optional<double> ttl;
    // While held and auto-renewed (Redis, MySQL): the renewer thread's lease.
    renew::Lease lease;
    // Its renewal found the lock lost before it was stopped (setAutoRenew(false)): still lost.
    bool lease_lost = false;
    RegistryEntry entry;
};
using LockObject = NativeObject<LockState>;
zend_object_handlers lock_handlers;

LockState &state_of(zend_object *object) {
    return LockObject::state_of(object);
}

LockState *constructed(zend_object *object) {
    LockState &state = state_of(object);
    if (!state.constructed) {
        zend_throw_error(
            nullptr, "Nativelock\\Lock object is not initialized: its constructor was not called");
        return nullptr;
    }
    return &state;
}

// Held by this process (a lock taken before fork() is the parent's).
bool held_here(const LockState &state) {
    return state.held && state.held_owner == process::current_tag();
}

void track(zend_object *object) {
    LockState &state = state_of(object);
    if (state.detached || state.entry.linked) return;
    registry_add(&state.entry);
    GC_ADDREF(object);
}

// Unlinks; the caller's own reference ($this) keeps the object alive.
void untrack(zend_object *object) {
    LockState &state = state_of(object);
    if (!state.entry.linked) return;
    registry_remove(&state.entry);
    OBJ_RELEASE(object);
}

// Whether auto-renewal found this lock lost (expired or taken): known without a round trip.
bool renewal_lost(const LockState &state) {
    return state.lease_lost || state.lease.lost();
}

// Stops the auto-renewal (after a renewal in flight has landed), keeping what it found.
void stop_renewal(LockState &state) noexcept {
    if (state.lease.lost()) state.lease_lost = true;
    state.lease.reset();
}

void mark_not_held(LockState &state) noexcept {
    state.lease.reset();
    state.lease_lost = false;
    if (state.mysql) {
        state.mysql->forget(state.key, state.mysql_serial);
        state.mysql.reset();
    }
    state.held = false;
    state.shared = false;
    state.fence = 0;
    state.connection_in_use.reset();
}

MysqlSessions &mysql_sessions() {
    if (!NATIVELOCK_G(native_mysql)) NATIVELOCK_G(native_mysql) = new MysqlSessions();
    return *NATIVELOCK_G(native_mysql);
}

// A session of this process that does not hold `key`, connected.
std::shared_ptr<PooledSession> mysql_session_not_holding(const BackendConfig &config,
                                                         const std::string &key) {
    auto &list = mysql_sessions().by_params[config.mysql->key()];
    // Inherited across fork: the parent's sessions are forgotten without a word (no COM_QUIT).
    list.erase(std::remove_if(list.begin(), list.end(),
                              [](const std::shared_ptr<PooledSession> &s) {
                                  return s->owner() != process::current_tag();
                              }),
               list.end());
    for (auto &pooled : list) {
        if (!pooled->holds(key)) return pooled;
    }
    list.push_back(std::make_shared<PooledSession>(*config.mysql));
    return list.back();
}

// The session of the application's PDO, in the process that opened it (a forked child must not
// speak on its parent's connection). Throws otherwise.
const std::shared_ptr<PooledSession> &pdo_session_here(const BackendConfig &config) {
    if (config.mysql_pdo->owner() != process::current_tag())
        throw nativelock::Error(
            "this MysqlBackend's PDO belongs to the parent process (it shares the parent's "
            "connection): in a forked child, give a MysqlBackend a PDO the child opened");
    return config.mysql_pdo;
}

std::shared_ptr<PooledSession> mysql_session_for(const LockState &state) {
    if (state.config.mysql_pdo) return pdo_session_here(state.config);
    return mysql_session_not_holding(state.config, state.key);
}

long long mysql_ttl_seconds(std::optional<double> ttl) {
    if (!ttl || *ttl >= static_cast<double>(mysql::kMaxTtlSeconds)) return mysql::kMaxTtlSeconds;
    return std::max(1LL, static_cast<long long>(std::ceil(*ttl)));
}

mysql::Protocol mysql_protocol(PooledSession &pooled, const LockState &state) {
    mysql::Protocol protocol(pooled.session(), mysql::QuoteStyle::Default, state.config.table);
    // The bridge's MySQL locks meet plain GET_LOCK users (php-lock's MySQLMutex), which hold
    // the name without a row: they are waited for, not KILLed (SharedLock keeps the package's
    // rule).
    protocol.set_kill_rowless_holders(false);
    return protocol;
}

// Whether the session that took the lock is still the one on the server (a lost session lost
// its locks).
bool mysql_session_intact(const LockState &state) {
    return state.mysql && state.mysql->connected() &&
           state.mysql->generation() == state.mysql_generation &&
           state.mysql->owned_by(state.key, state.mysql_serial);
}

// A statement about a lock held on a session that the server ended (KILL, restart): the lock
// went with the session, which is what the caller is told, not an error.
template <typename Statement>
auto on_held_session(Statement statement) -> decltype(statement()) {
    bool gone = false;
    try {
        return statement();
    } catch (const mysql::SessionLost &) {
        return {};
    } catch (const mysql::SqlError &e) {
        // Through a PDO, as the client library reports it: "server has gone away", "lost
        // connection" (a PDO does not reconnect; its session, and the lock, are gone).
        if (e.code() != 2006 && e.code() != 2013) throw;
        gone = true;
    }
    // Outside the catch: releasing the PDOException may run user code.
    if (gone) sharedlock::drop_previous();
    return {};
}

redis::Connection &redis_connection(const LockState &state) {
    return redislock_globals().pool.get(*state.config.redis);
}

long long redis_ttl_seconds(std::optional<double> ttl) {
    if (!ttl || *ttl >= kNoLimitSeconds) return static_cast<long long>(kNoLimitSeconds);
    return std::max(1LL, static_cast<long long>(std::ceil(*ttl)));
}

long long ttl_ms(std::optional<double> ttl) {
    if (!ttl || *ttl >= kNoLimitSeconds) return static_cast<long long>(kNoLimitSeconds) * 1000;
    return std::max(1LL, static_cast<long long>(std::ceil(*ttl * 1000)));
}

// Whether this backend's locks can be auto-renewed (files have no TTL to renew).
// Nor locks on an application's PDO: the renewer thread cannot speak on that session, and the
// lock is judged by it.
bool renewable(const BackendConfig &config) {
    return config.kind == BackendKind::RedisPlain || config.kind == BackendKind::RedisSymfony ||
           (config.kind == BackendKind::Mysql && !config.mysql_pdo);
}

// What the renewer sends to keep a lock this process holds alive at `ttl`; null for no expiry
// (or a lock whose session is gone).
std::unique_ptr<renew::Renewal> make_renewal_for(const LockState &state,
                                                 std::optional<double> ttl) {
    if (!state.held || state.held_owner != process::current_tag() || !renewable(state.config))
        return nullptr;
    if (!ttl || *ttl >= kNoLimitSeconds) return nullptr;
    const long long ms = ttl_ms(ttl);
    std::unique_ptr<renew::Renewal> renewal;
    switch (state.config.kind) {
        case BackendKind::RedisPlain:
            renewal = redis::make_renewal(*state.config.redis, state.key, state.token, ms);
            break;
        case BackendKind::RedisSymfony:
            renewal = redis::make_renewal(
                *state.config.redis,
                [key = state.key, token = state.token, ms](redis::Connection &c) {
                    return redis::symfony::extend_at_least(c, key, token, ms);
                });
            break;
        case BackendKind::Mysql: {
            if (!mysql_session_intact(state)) return nullptr;
            // Judged by the holding session's connection id and by a user lock only that
            // session holds (ids are reused after a server restart); the renewal also needs it
            // to hold GET_LOCK. Taking that lock (once per session) throws if the session was
            // replaced meanwhile.
            std::string identity = state.mysql->native->identity_lock();
            renewal = mysql::make_renewal(
                *state.config.mysql, mysql::QuoteStyle::Default, state.config.table, state.key,
                state.mysql->native->connection_id(), mysql_ttl_seconds(ttl), std::move(identity));
            break;
        }
        default:
            break;
    }
    return renewal;
}

// Starts the renewer's lease on a lock this process holds, which was given its TTL at `since`
// (the acquisition's reply, a refresh's send); no-op for a lock without expiry. Throws if the
// thread cannot be started.
void start_renewal(LockState &state, nativelock::renew::Instant since) {
    state.lease.reset();
    std::unique_ptr<renew::Renewal> renewal = make_renewal_for(state, state.ttl);
    if (!renewal) return;
    state.lease = renew::Renewer::instance().start(
        std::move(renewal), std::chrono::milliseconds(ttl_ms(state.ttl)), since);
}

// Releases on the backend if this process holds the lock. Throws on backend errors.
bool release_on_backend(LockState &state) {
    switch (state.config.kind) {
        case BackendKind::RedisPlain:
            return redis::release(redis_connection(state), state.key, state.token);
        case BackendKind::RedisSymfony:
            return redis::symfony::remove(redis_connection(state), state.key, state.token);
        case BackendKind::File:
            return state.file && state.file->release();
        case BackendKind::Mysql: {
            if (!state.mysql) return false;
            if (!mysql_session_intact(state)) return false;  // lost with its session, or forced
            std::shared_ptr<PooledSession> pooled = std::move(state.mysql);
            pooled->forget(state.key, state.mysql_serial);
            return on_held_session(
                [&] { return mysql_protocol(*pooled, state).unlock(state.key); });
        }
        case BackendKind::None:
            break;
    }
    return false;
}

// Request end (after destructors and shutdown functions, also after a fatal error): releases
// without calling PHP, then drops the registry's reference.
// On an application's PDO at request end: through its driver, with no PHP call (after a fatal
// error no PHP code may run; a PDO subclass's methods are user code).
void release_on_pdo_at_end(LockState &state) {
    if (!mysql_session_intact(state)) return;
    std::shared_ptr<PooledSession> pooled = std::move(state.mysql);
    pooled->forget(state.key, state.mysql_serial);
    if (std::unique_ptr<mysql::Session> driver = sharedlock::driver_session(pooled->pdo->pdo()))
        mysql::Protocol(*driver, mysql::QuoteStyle::Default, state.config.table)
            .release_at_end(state.key);
}

void release_at_request_end(RegistryEntry *entry) noexcept {
    LockObject *self = LockObject::from_entry<&LockState::entry>(entry);
    LockState &state = self->state;
    try {
        if (held_here(state)) {
            if (state.mysql && state.mysql->is_pdo()) {
                release_on_pdo_at_end(state);
            } else {
                release_on_backend(state);
            }
        }
    } catch (...) {
        // Nobody to tell: the lock lapses with its TTL (files: with the process).
    }
    mark_not_held(state);
    OBJ_RELEASE(&self->std);
}

zend_object *create_lock(zend_class_entry *ce) {
    zend_object *object = LockObject::create(ce, &lock_handlers);
    state_of(object).entry.release = release_at_request_end;
    return object;
}

void free_lock(zend_object *object) {
    LockState &state = state_of(object);
    // Tracked still only when taken after RSHUTDOWN's release, by user code that ran later (a
    // session save handler's write(), a stream wrapper closed at shutdown): the object store
    // frees it now, and the lock goes with it. Not on an application's PDO, which may be
    // gone already: its lock went with its connection.
    if (state.entry.linked) {
        registry_remove(&state.entry);
        try {
            if (held_here(state) && !(state.mysql && state.mysql->is_pdo()))
                release_on_backend(state);
        } catch (...) {
        }
        mark_not_held(state);
    }
    // Otherwise only untracked objects get here: not held, detached, or the parent's after
    // fork. A detached lock outlives its object by design.
    if (state.backend) OBJ_RELEASE(state.backend);
    state.backend = nullptr;
    LockObject::destroy(object);
}

// Seconds as an optional limit: null → nothing; NaN, negative (and 0 unless allowed) →
// ValueError. Returns false with the error thrown.
bool parse_seconds(zval *value, bool is_null, double seconds, uint32_t arg, bool allow_zero,
                   std::optional<double> *out) {
    (void)value;
    if (is_null) {
        out->reset();
        return true;
    }
    if (std::isnan(seconds) || seconds < 0 || (!allow_zero && seconds == 0)) {
        zend_argument_value_error(arg, allow_zero ? "must be null or a number of seconds >= 0"
                                                  : "must be null or a number of seconds > 0");
        return false;
    }
    *out = seconds;
    return true;
}

// Marks a call on this lock as in progress while it runs statements through an application's
// PDO, during which signal handlers run: one that acquires or releases the same lock is refused
// (LockState::waiting), as during a wait.
class InProgress {
  public:
    explicit InProgress(zend_object *object) : object_(object), outer_(state_of(object).waiting) {
        state_of(object_).waiting = true;
    }
    ~InProgress() { state_of(object_).waiting = outer_; }  // a handler's call inside a wait
    InProgress(const InProgress &) = delete;
    InProgress &operator=(const InProgress &) = delete;

  private:
    zend_object *object_;  // $this of the running method: alive until it returns
    bool outer_;
};

enum class Attempt { Acquired, NotAcquired, Interrupted };

// One backend wait, resumable after an interrupt; see interrupts.h for the loop around it.
class Wait {
  public:
    virtual ~Wait() = default;
    virtual Attempt wait(const Deadline &deadline) = 0;
    // Gives up for good (a handler threw or bailed out): leaves the backend's queue.
    virtual void give_up() noexcept = 0;
    // The fencing token drawn with the acquisition by the backend's own acquire (Redis plain),
    // else 0 (the caller draws it).
    virtual long long token() const { return 0; }
    // When the TTL of what it acquired started, if the backend's wait knows it better than
    // "when the wait returned" (a Redis hand-over sets it before the grant reaches us).
    virtual std::optional<nativelock::renew::Instant> held_since() const { return std::nullopt; }
};

class RedisPlainWait : public Wait {
  public:
    RedisPlainWait(const LockState &state, long long ttl_seconds)
        : params_(state.config.redis),
          command_connection_in_use_(redislock_globals().pool.pin(*params_)),
          wait_(*params_, state.key, state.token, ttl_seconds, &redislock_globals().subscribers,
                state.fencing) {}
    Attempt wait(const Deadline &deadline) override {
        auto outcome =
            wait_.wait(redislock_globals().pool.get(*params_), deadline, interrupt_pending);
        if (outcome == redis::WaitOutcome::Interrupted) return Attempt::Interrupted;
        return outcome == redis::WaitOutcome::Acquired ? Attempt::Acquired : Attempt::NotAcquired;
    }
    void give_up() noexcept override {
        try {
            wait_.leave_queue(redislock_globals().pool.get(*params_));
        } catch (...) {
            // Its place lapses with its lease.
        }
    }
    long long token() const override { return wait_.token(); }
    std::optional<nativelock::renew::Instant> held_since() const override {
        return wait_.held_since();
    }

  private:
    std::shared_ptr<const redis::ConnectionParams> params_;
    redis::Pool::Pin command_connection_in_use_;
    redis::AcquireWait wait_;
};

class RedisSymfonyWait : public Wait {
  public:
    RedisSymfonyWait(const LockState &state, long long ttl, bool shared)
        : params_(state.config.redis),
          command_connection_in_use_(redislock_globals().pool.pin(*params_)),
          wait_(*params_, state.key, state.token, ttl, shared, &redislock_globals().subscribers) {}
    Attempt wait(const Deadline &deadline) override {
        auto outcome =
            wait_.wait(redislock_globals().pool.get(*params_), deadline, interrupt_pending);
        if (outcome == redis::WaitOutcome::Interrupted) return Attempt::Interrupted;
        return outcome == redis::WaitOutcome::Acquired ? Attempt::Acquired : Attempt::NotAcquired;
    }
    void give_up() noexcept override {
        try {
            wait_.leave_queue(redislock_globals().pool.get(*params_));
        } catch (...) {
        }
    }

  private:
    std::shared_ptr<const redis::ConnectionParams> params_;
    redis::Pool::Pin command_connection_in_use_;
    redis::symfony::AcquireWait wait_;
};

class FileWait : public Wait {
  public:
    FileWait(file::LockFile &lock, std::string record) : lock_(lock), record_(std::move(record)) {}
    Attempt wait(const Deadline &deadline) override {
        file::Contention contention;
        file::WaitResult result = lock_.acquire(record_, deadline, interrupt_pending, &contention);
        if (result.interrupted) return Attempt::Interrupted;
        if (result.status == file::Status::FailedToObtain) {
            throw SystemError("cannot take the lock file " + lock_.path(),
                              contention.error ? contention.error : EIO);
        }
        return result.status == file::Status::Acquired ? Attempt::Acquired : Attempt::NotAcquired;
    }
    void give_up() noexcept override { lock_.abandon_wait(); }

  private:
    file::LockFile &lock_;
    std::string record_;
};

class MysqlWait : public Wait {
  public:
    MysqlWait(LockState &state, long long ttl) : state_(state), ttl_(ttl) {}
    Attempt wait(const Deadline &deadline) override {
        // Chosen again after an interrupt: a handler may have taken this name on the session.
        if (!pooled_ || pooled_->holds(state_.key)) {
            pooled_ = mysql_session_for(state_);
            memory_ = {};  // what was seen, was seen through another session
        }
        if (pooled_->is_pdo() && pooled_->holds(state_.key)) {
            // Another Lock of this process holds it on the same session, which the server would
            // let take it again: wait for that Lock's release (a signal handler's, as this
            // process is in here) or the deadline, in short sleeps that signals cut.
            while (pooled_->holds(state_.key)) {
                if (interrupt_pending() || sharedlock::has_deferred_throwable())
                    return Attempt::Interrupted;
                if (deadline.expired()) return Attempt::NotAcquired;
                const double slice = deadline.remaining_seconds(0.02);
                ::usleep(static_cast<useconds_t>(std::max(1.0, slice * 1e6)));
            }
        }
        pooled_->ensure_connected();
        try {
            // Through a PDO, signal handlers run inside its calls; what they throw is deferred
            // and ends the wait as well.
            mysql_protocol(*pooled_, state_)
                .lock(
                    state_.key, deadline, ttl_,
                    [] { return interrupt_pending() || sharedlock::has_deferred_throwable(); },
                    &memory_);
        } catch (const mysql::WaitInterrupted &) {
            return Attempt::Interrupted;
        } catch (const mysql::LockTimeout &) {
            return Attempt::NotAcquired;
        }
        const std::uint64_t serial = ++mysql_sessions().last_serial;
        pooled_->held[state_.key] = serial;
        state_.mysql = pooled_;
        state_.mysql_generation = pooled_->generation();
        state_.mysql_serial = serial;
        return Attempt::Acquired;
    }
    void give_up() noexcept override {}

  private:
    LockState &state_;
    long long ttl_;
    std::shared_ptr<PooledSession> pooled_;
    // Kept across interrupts, as the wait goes on (mysql::WaitMemory).
    mysql::WaitMemory memory_;
};

std::string file_record(const LockState &state) {
    file::OwnerRecord record = nativelock_filelock_owner_record(state.key);
    record.token = state.token;
    return file::encode(record);
}

std::unique_ptr<file::LockFile> &file_of(LockState &state) {
    if (!state.file) {
        state.file = std::make_unique<file::LockFile>(
            file::lock_file_path(state.config.directory, state.key));
    }
    return state.file;
}

// One attempt without waiting. Throws on backend errors. Redis plain with fencing: the token
// drawn with it goes to `token`.
bool try_once(LockState &state, std::optional<double> ttl, bool shared, long long &token) {
    switch (state.config.kind) {
        case BackendKind::RedisPlain:
            if (state.fencing) {
                token = redis::try_acquire_fenced(redis_connection(state), state.key, state.token,
                                                  redis_ttl_seconds(ttl));
                return token > 0;
            }
            return redis::try_acquire(redis_connection(state), state.key, state.token,
                                      redis_ttl_seconds(ttl));
        case BackendKind::RedisSymfony:
            return shared ? redis::symfony::save_read(redis_connection(state), state.key,
                                                      state.token, ttl_ms(ttl))
                          : redis::symfony::save(redis_connection(state), state.key, state.token,
                                                 ttl_ms(ttl));
        case BackendKind::File: {
            file::Contention contention;
            file::Status status = file_of(state)->try_acquire(file_record(state), &contention);
            if (status == file::Status::FailedToObtain) {
                throw SystemError("cannot take the lock file " + state.file->path(),
                                  contention.error ? contention.error : EIO);
            }
            return status == file::Status::Acquired;
        }
        case BackendKind::Mysql:
            return MysqlWait(state, mysql_ttl_seconds(ttl)).wait(Deadline::after(0)) ==
                   Attempt::Acquired;
        case BackendKind::None:
            break;
    }
    return false;
}

std::unique_ptr<Wait> make_wait(LockState &state, std::optional<double> ttl, bool shared) {
    switch (state.config.kind) {
        case BackendKind::RedisPlain:
            return std::make_unique<RedisPlainWait>(state, redis_ttl_seconds(ttl));
        case BackendKind::RedisSymfony:
            return std::make_unique<RedisSymfonyWait>(state, ttl_ms(ttl), shared);
        case BackendKind::File:
            return std::make_unique<FileWait>(*file_of(state), file_record(state));
        case BackendKind::Mysql:
            return std::make_unique<MysqlWait>(state, mysql_ttl_seconds(ttl));
        case BackendKind::None:
            break;
    }
    throw InvalidArgument("this backend cannot wait");
}

// Sets the TTL anew if the token still holds the lock. Throws on backend errors.
bool refresh_on_backend(LockState &state, std::optional<double> ttl) {
    switch (state.config.kind) {
        case BackendKind::RedisPlain:
            return redis::refresh(redis_connection(state), state.key, state.token, ttl_ms(ttl));
        case BackendKind::RedisSymfony:
            return redis::symfony::put_off_expiration(redis_connection(state), state.key,
                                                      state.token, ttl_ms(ttl));
        case BackendKind::File:
            // No TTL to set: the lock lasts while its file is ours (a force release ends it).
            return held_here(state) && state.file && state.file->held_and_linked();
        case BackendKind::Mysql:
            return held_here(state) && mysql_session_intact(state) && on_held_session([&] {
                       return mysql_protocol(*state.mysql, state)
                           .extend(state.key, mysql_ttl_seconds(ttl));
                   });
        case BackendKind::None:
            break;
    }
    return false;
}

// Whether this lock is to be auto-renewed while held.
bool wants_renewal(const LockState &state) {
    return renewable(state.config) && state.auto_renew.value_or(NATIVELOCK_G(auto_renew));
}

// Gives the lock a new TTL (files: checks that it is still ours). An auto-renewal goes on at
// the new TTL; it is held back while the refresh is on the wire, so that no renewal sent with
// the old TTL lands after it. `renew_after`: start a renewal if none runs. Returns false if the
// lock is lost. Throws on backend errors (a renewal then goes on as before).
bool refresh_held(LockState &state, std::optional<double> ttl, bool renew_after) {
    if (renewal_lost(state)) return false;
    if (!state.lease.active()) {
        const auto sent = nativelock::renew::Instant::now();
        if (!refresh_on_backend(state, ttl)) return false;
        state.ttl = ttl;
        if (renew_after) start_renewal(state, sent);
        return true;
    }
    // Renewals are held back while the refresh is on the wire; unless resumed with the new
    // TTL below, they go on as after a refresh of unknown outcome.
    const long long old_ms = ttl_ms(state.ttl), new_ms = ttl_ms(ttl);
    std::unique_ptr<renew::Renewal> shorter;
    if (new_ms < old_ms) shorter = make_renewal_for(state, ttl);
    renew::PausedLease paused(state.lease, std::chrono::milliseconds(new_ms), std::move(shorter),
                              std::chrono::milliseconds(std::min(old_ms, new_ms)));
    if (state.lease.lost()) return false;
    if (!refresh_on_backend(state, ttl)) return false;
    state.ttl = ttl;
    std::unique_ptr<renew::Renewal> renewal = make_renewal_for(state, ttl);
    if (!renewal) {
        paused.dismiss();
        stop_renewal(state);  // no expiry now: nothing to renew
        return true;
    }
    paused.resume(std::move(renewal));
    return true;
}

enum class Outcome { Acquired, NotAcquired, Error, Thrown, Bailout };

// The C++ part of acquire(): every C++ object of the wait lives in this frame; signal handlers
// run between waits (run_pending_interrupts, inside zend_try) and the wait goes on with the
// same deadline.
// With fencing: the token of an acquisition just made (not yet marked held). Redis plain drew it
// in its acquire script (`drawn`); files and MySQL draw it now, while holding, and a lock whose
// token cannot be drawn is given back and the error rethrown. Symfony's format has no counter: 0.
long long draw_fence_or_give_back(LockState &state, long long drawn) {
    switch (state.config.kind) {
        case BackendKind::RedisPlain:
            if (drawn <= 0) throw ProtocolError("no fencing token came with the acquisition");
            return drawn;
        case BackendKind::File:
            try {
                return state.file->draw_fence();
            } catch (...) {
                try {
                    state.file->release();
                } catch (...) {
                }
                throw;
            }
        case BackendKind::Mysql: {
            const std::shared_ptr<PooledSession> pooled = state.mysql;
            std::exception_ptr failure;
            try {
                return mysql_protocol(*pooled, state).draw_fence(state.key);
            } catch (...) {
                failure = std::current_exception();
            }
            // Given back outside the catch: through a PDO this runs PHP.
            try {
                mysql_protocol(*pooled, state).unlock(state.key);
            } catch (...) {
            }
            pooled->forget(state.key, state.mysql_serial);
            state.mysql.reset();
            std::rethrow_exception(failure);
        }
        case BackendKind::RedisSymfony:
        case BackendKind::None:
            break;
    }
    return 0;
}

Outcome acquire_natively(zend_object *object, std::optional<double> ttl,
                         std::optional<double> timeout, bool shared, PendingError &error) noexcept {
    // Until the lock is marked held (the fencing token drawn, the renewal started): statements
    // through a PDO run signal handlers, which must not acquire or release this lock meanwhile.
    InProgress busy(object);
    try {
        // Whatever TTL this acquisition sets (MySQL's row `created`) is set after this.
        const auto started = nativelock::renew::Instant::now();
        LockState *state = &state_of(object);
        state->fencing = NATIVELOCK_G(fencing);
        bool got = false;
        long long token = 0;
        std::optional<nativelock::renew::Instant> held_since;
        if (timeout && *timeout == 0) {
            got = try_once(*state, ttl, shared, token);
        } else {
            Deadline deadline = timeout ? Deadline::after(*timeout) : Deadline::never();
            std::unique_ptr<Wait> wait = make_wait(*state, ttl, shared);
            const auto waiter = process::current_tag();
            for (;;) {
                Attempt attempt = wait->wait(deadline);
                if (attempt != Attempt::Interrupted) {
                    got = attempt == Attempt::Acquired;
                    token = wait->token();
                    if (got) held_since = wait->held_since();
                    break;
                }
                if (sharedlock::has_deferred_throwable()) {
                    // A handler that ran inside a PDO call threw: the caller throws it.
                    wait->give_up();
                    return Outcome::Thrown;
                }
                AfterInterrupt after = run_pending_interrupts();
                state = &state_of(object);  // a handler may have used the object
                if (process::current_tag() != waiter) {
                    // A handler forked: the child does not go on with the parent's wait.
                    if (after == AfterInterrupt::KeepWaiting) return Outcome::NotAcquired;
                    return after == AfterInterrupt::Exception ? Outcome::Thrown : Outcome::Bailout;
                }
                if (after == AfterInterrupt::KeepWaiting) continue;
                wait->give_up();
                return after == AfterInterrupt::Exception ? Outcome::Thrown : Outcome::Bailout;
            }
        }
        if (!got) return Outcome::NotAcquired;
        // Its TTL counts from when the wait says it was set, else from about now (the lease's
        // margin covers the reply's way back).
        const auto acquired_at = held_since.value_or(nativelock::renew::Instant::now());
        if (state->fencing) token = draw_fence_or_give_back(*state, token);
        state->fence = token;
        if (state->config.kind == BackendKind::RedisPlain ||
            state->config.kind == BackendKind::RedisSymfony) {
            state->connection_in_use = redislock_globals().pool.pin(*state->config.redis);
        }
        state->held = true;
        state->shared = shared;
        state->held_owner = process::current_tag();
        state->ttl = ttl;
        if (renewable(state->config) && state->auto_renew.value_or(NATIVELOCK_G(auto_renew))) {
            try {
                auto since = acquired_at;
                if (state->config.kind == BackendKind::Mysql && ttl && *ttl < kNoLimitSeconds) {
                    // The row's `created` was written by this call, but possibly long before
                    // GET_LOCK was granted (a wait behind its holder). A quick acquisition
                    // counts from its start (a little early: safe); after a wait the TTL is set
                    // anew, so the lease counts from a known time.
                    const bool quick = nativelock::renew::granted_promptly(
                        started, acquired_at, std::chrono::milliseconds(ttl_ms(ttl)));
                    since = quick ? started : nativelock::renew::Instant::now();
                    if (!quick && !refresh_on_backend(*state, ttl)) {
                        // Taken over (our session ended) between the grant and now: not ours.
                        try {
                            release_on_backend(*state);
                        } catch (...) {
                        }
                        mark_not_held(*state);
                        return Outcome::NotAcquired;
                    }
                }
                start_renewal(*state, since);
            } catch (...) {
                // No renewer thread (or no answer): the lock is given back, not held
                // unrenewed.
                try {
                    release_on_backend(*state);
                } catch (...) {
                }
                mark_not_held(*state);
                throw;
            }
        }
        return Outcome::Acquired;
    } catch (...) {
        capture_current_exception(error);
        return Outcome::Error;
    }
}

}  // namespace

std::shared_ptr<PooledSession> mysql_pdo_session(zend_object *pdo) {
    auto &by_pdo = mysql_sessions().by_pdo;
    for (auto it = by_pdo.begin(); it != by_pdo.end();)
        it = it->second.expired() ? by_pdo.erase(it) : std::next(it);
    std::weak_ptr<PooledSession> &slot = by_pdo[pdo];
    if (std::shared_ptr<PooledSession> existing = slot.lock()) return existing;
    auto created = std::make_shared<PooledSession>(pdo);
    slot = created;
    return created;
}

bool mysql_force_release(const BackendConfig &config, const std::string &key) {
    // A Lock of this process holding it: through its own session, which releases instead of
    // ending itself (and the other locks on it) with a KILL.
    std::shared_ptr<PooledSession> pooled;
    if (config.mysql_pdo) {
        pooled = pdo_session_here(config);
    } else {
        for (auto &candidate : mysql_sessions().by_params[config.mysql->key()]) {
            if (candidate->holds(key) && candidate->owner() == process::current_tag())
                pooled = candidate;
        }
        if (!pooled) pooled = mysql_session_not_holding(config, key);
    }
    const bool freed = mysql::Protocol(pooled->session(), mysql::QuoteStyle::Default, config.table)
                           .force_release(key);
    // On a PDO the Lock that held it has lost it: its release() must not touch a later holder's.
    // (A session of our own keeps the entry until that Lock lets go: no other Lock is given the
    // name on it, and the renewal that Lock may run there finds its row gone.)
    if (pooled->is_pdo()) pooled->held.erase(key);
    return freed;
}

}  // namespace nativelock::php::native

using namespace nativelock::php::native;
using nativelock::php::PendingError;
namespace process = nativelock::process;

ZEND_METHOD(Nativelock_Lock, __construct) {
    zend_object *backend;
    zend_string *key;
    zend_string *token = nullptr;
    ZEND_PARSE_PARAMETERS_START(2, 3)
    Z_PARAM_OBJ_OF_CLASS(backend, backend_ce)
    Z_PARAM_STR(key)
    Z_PARAM_OPTIONAL
    Z_PARAM_STR_OR_NULL(token)
    ZEND_PARSE_PARAMETERS_END();

    zend_object *object = Z_OBJ_P(ZEND_THIS);
    if (state_of(object).constructed) {
        zend_throw_error(nullptr, "Nativelock\\Lock::__construct() cannot be called twice");
        RETURN_THROWS();
    }
    const BackendConfig *config = backend_config(backend);
    if (!config) RETURN_THROWS();
    if (ZSTR_LEN(key) == 0) {
        zend_argument_value_error(2, "must not be empty");
        RETURN_THROWS();
    }
    if (token && (ZSTR_LEN(token) == 0 || ZSTR_LEN(token) > 1024)) {
        zend_argument_value_error(3, "must be null or a string of 1 to 1024 bytes");
        RETURN_THROWS();
    }
    if (config->kind == BackendKind::RedisPlain || config->kind == BackendKind::RedisSymfony) {
        if (ZSTR_LEN(key) > 65536) {
            zend_argument_value_error(2, "must be at most 65536 bytes long");
            RETURN_THROWS();
        }
    }
    if (config->kind == BackendKind::Mysql && !zend_string_equals_literal(key, "") &&
        ZSTR_LEN(key) > 64 * 4) {
        zend_argument_value_error(2, "must be at most 64 characters long on MySQL");
        RETURN_THROWS();
    }
    LockState &state = state_of(object);
    NL_TRY
    if (config->kind == BackendKind::File) {
        // Validates the name as Filelock does (length, NUL in the directory).
        nativelock::file::lock_file_path(config->directory,
                                         std::string_view(ZSTR_VAL(key), ZSTR_LEN(key)));
    }
    state.config = *config;
    state.key.assign(ZSTR_VAL(key), ZSTR_LEN(key));
    if (token) {
        state.token.assign(ZSTR_VAL(token), ZSTR_LEN(token));
    } else {
        state.token = nativelock::random::base64_token(20);
        state.token_random = true;
    }
    state.token_owner = process::current_tag();
    state.constructed = true;
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\Lock::__construct()")
    GC_ADDREF(backend);
    state.backend = backend;
}

ZEND_METHOD(Nativelock_Lock, acquire) {
    double ttl_value = 0, timeout_value = 0;
    bool ttl_null = true, timeout_null = false;
    bool shared = false;
    ZEND_PARSE_PARAMETERS_START(0, 3)
    Z_PARAM_OPTIONAL
    Z_PARAM_DOUBLE_OR_NULL(ttl_value, ttl_null)
    Z_PARAM_DOUBLE_OR_NULL(timeout_value, timeout_null)
    Z_PARAM_BOOL(shared)
    ZEND_PARSE_PARAMETERS_END();

    zend_object *object = Z_OBJ_P(ZEND_THIS);
    LockState *state = constructed(object);
    if (!state) RETURN_THROWS();
    std::optional<double> ttl, timeout;
    if (!parse_seconds(nullptr, ttl_null, ttl_value, 1, false, &ttl)) RETURN_THROWS();
    if (!parse_seconds(nullptr, timeout_null, timeout_value, 2, true, &timeout)) RETURN_THROWS();
    if (shared && state->config.kind != BackendKind::RedisSymfony) {
        zend_throw_exception_ex(not_supported_exception_ce, 0,
                                "Nativelock\\Lock::acquire(): this backend has no shared locks");
        RETURN_THROWS();
    }
    if (state->waiting) {
        zend_throw_exception(
            lock_exception_ce,
            "Nativelock\\Lock::acquire(): a wait or another call of this lock is in progress", 0);
        RETURN_THROWS();
    }
    if (state->held && !held_here(*state)) {
        // Taken by the parent before fork(): the child forgets it without a word to the backend.
        mark_not_held(*state);
        untrack(object);
    }
    NL_TRY
    if (state->token_random && state->token_owner != process::current_tag()) {
        // A child must not share its parent's random token: both would pass "still ours".
        state->token = nativelock::random::base64_token(20);
        state->token_owner = process::current_tag();
    }
    if (held_here(*state) && state->shared == shared) {
        // Taken again by its holder: the new TTL (files: nothing to do), which a renewal keeps.
        bool still_held;
        {
            InProgress busy(object);
            still_held = refresh_held(*state, ttl, wants_renewal(*state));
        }
        if (!still_held) mark_not_held(*state);
        if (rethrow_deferred()) {
            if (!state->held) untrack(object);
            RETURN_THROWS();
        }
        if (still_held) RETURN_TRUE;
    }
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\Lock::acquire()")
    if (!state->held) untrack(object);

    PendingError error;
    Outcome outcome = acquire_natively(object, ttl, timeout, shared, error);
    if (outcome == Outcome::Acquired && nativelock::php::sharedlock::has_deferred_throwable()) {
        // A handler threw inside a PDO call after the lock was taken: the caller never learns
        // it has it, so it goes back, as if the wait had ended just before.
        state = &state_of(object);
        bool bailed = false;
        try {
            InProgress busy(object);
            release_on_backend(*state);
        } catch (const nativelock::php::BailoutPending &) {
            bailed = true;
        } catch (...) {
            // Its session keeps it until its TTL or the request's end, like a failed release.
        }
        mark_not_held(*state);
        if (bailed) zend_bailout();
        outcome = Outcome::Thrown;
    }
    if (outcome == Outcome::Error && error.category == nativelock::php::ErrorCategory::Bailout)
        zend_bailout();
    if (rethrow_deferred()) RETURN_THROWS();
    switch (outcome) {
        case Outcome::Acquired:
            track(object);
            RETURN_TRUE;
        case Outcome::NotAcquired:
            RETURN_FALSE;
        case Outcome::Thrown:
            RETURN_THROWS();
        case Outcome::Bailout:
            zend_bailout();
        case Outcome::Error:
            break;
    }
    if (error.category == nativelock::php::ErrorCategory::Bailout) zend_bailout();
    throw_error(error, "Nativelock\\Lock::acquire()");
    RETURN_THROWS();
}

ZEND_METHOD(Nativelock_Lock, refresh) {
    double ttl_value;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_DOUBLE(ttl_value)
    ZEND_PARSE_PARAMETERS_END();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    LockState *state = constructed(object);
    if (!state) RETURN_THROWS();
    std::optional<double> ttl;
    if (!parse_seconds(nullptr, false, ttl_value, 1, false, &ttl)) RETURN_THROWS();
    if (state->token_owner != process::current_tag() || (state->held && !held_here(*state))) {
        RETURN_FALSE;  // the parent's lock
    }
    bool ok = false;
    NL_TRY
    InProgress busy(object);
    ok = refresh_held(*state, ttl, wants_renewal(*state));
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\Lock::refresh()")
    if (rethrow_deferred()) RETURN_THROWS();
    if (!ok && state->held) {
        mark_not_held(*state);  // expired or taken: lost
        untrack(object);
    }
    RETURN_BOOL(ok);
}

ZEND_METHOD(Nativelock_Lock, release) {
    ZEND_PARSE_PARAMETERS_NONE();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    LockState *state = constructed(object);
    if (!state) RETURN_THROWS();
    if (state->token_owner != process::current_tag() || (state->held && !held_here(*state))) {
        // After fork: the parent's lock is not ours to release.
        if (state->held) {
            mark_not_held(*state);
            untrack(object);
        }
        RETURN_FALSE;
    }
    if (state->waiting) {
        zend_throw_exception(
            lock_exception_ce,
            "Nativelock\\Lock::release(): a wait or another call of this lock is in progress", 0);
        RETURN_THROWS();
    }
    bool released = false;
    // A lock its auto-renewal found expired or taken: release() says false (after giving back
    // whatever is still ours).
    const bool lost = renewal_lost(*state);
    // The renewal goes on until the release has succeeded (mark_not_held() then ends it, after
    // a renewal in flight has landed: none can reach a later acquisition with this token).
    NL_TRY
    InProgress busy(object);
    released = release_on_backend(*state) && !lost;
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\Lock::release()")
    mark_not_held(*state);
    untrack(object);
    if (rethrow_deferred()) RETURN_THROWS();
    RETURN_BOOL(released);
}

ZEND_METHOD(Nativelock_Lock, isHeld) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (state->token_owner != process::current_tag() || (state->held && !held_here(*state))) {
        RETURN_FALSE;
    }
    bool held = false;
    NL_TRY
    switch (state->config.kind) {
        case BackendKind::RedisPlain:
            held = nativelock::redis::is_held(redis_connection(*state), state->key, state->token);
            break;
        case BackendKind::RedisSymfony:
            held = nativelock::redis::symfony::exists(redis_connection(*state), state->key,
                                                      state->token);
            break;
        case BackendKind::File:
            // Asks the filesystem too: the lock file may have been removed by a force release.
            held = held_here(*state) && state->file && state->file->held_and_linked();
            break;
        case BackendKind::Mysql:
            held =
                held_here(*state) && mysql_session_intact(*state) && on_held_session([&] {
                    return mysql_protocol(*state->mysql, *state).has_remaining_ttl(state->key, -1);
                });
            break;
        case BackendKind::None:
            break;
    }
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\Lock::isHeld()")
    if (rethrow_deferred()) RETURN_THROWS();
    RETURN_BOOL(held);
}

ZEND_METHOD(Nativelock_Lock, isAcquired) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    // A forceRelease() of this process through the PDO the lock lives on took it away.
    const bool forced = state->mysql && state->mysql->is_pdo() &&
                        !state->mysql->owned_by(state->key, state->mysql_serial);
    RETURN_BOOL(held_here(*state) && !renewal_lost(*state) && !forced);
}

ZEND_METHOD(Nativelock_Lock, setAutoRenew) {
    bool enabled = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_BOOL(enabled)
    ZEND_PARSE_PARAMETERS_END();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    LockState *state = constructed(object);
    if (!state) RETURN_THROWS();
    if (enabled && !renewable(state->config)) {
        zend_throw_exception_ex(not_supported_exception_ce, 0, "%s",
                                state->config.mysql_pdo
                                    ? "Nativelock\\Lock::setAutoRenew(): locks on an application's "
                                      "PDO are not renewed (the renewer cannot use its session); "
                                      "refresh() them, or give the MysqlBackend a DSN"
                                    : "Nativelock\\Lock::setAutoRenew(): locks of this backend "
                                      "have no TTL to renew");
        RETURN_THROWS();
    }
    state->auto_renew = enabled;
    if (!enabled) {
        stop_renewal(*state);
    } else if (held_here(*state) && !state->lease.active() && !renewal_lost(*state) && state->ttl &&
               *state->ttl < kNoLimitSeconds) {
        // Held for a while already: its TTL is set again now (which also says whether it is
        // still ours), so the lease starts from a known expiry.
        bool still_held = false;
        NL_TRY
        still_held = refresh_held(*state, state->ttl, true);
        NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\Lock::setAutoRenew()")
        if (!still_held) {
            mark_not_held(*state);
            untrack(object);
        }
    }
    RETURN_OBJ_COPY(object);
}

ZEND_METHOD(Nativelock_Lock, isAutoRenewed) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    RETURN_BOOL(held_here(*state) && state->lease.active() && !renewal_lost(*state));
}

ZEND_METHOD(Nativelock_Lock, getRemainingLifetime) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (state->token_owner != process::current_tag() || (state->held && !held_here(*state)) ||
        renewal_lost(*state)) {
        RETURN_DOUBLE(0.0);
    }
    std::optional<long long> ms;
    bool never_expires = false;
    NL_TRY
    switch (state->config.kind) {
        case BackendKind::RedisPlain:
            ms =
                nativelock::redis::remaining_ms(redis_connection(*state), state->key, state->token);
            break;
        case BackendKind::RedisSymfony:
            ms = nativelock::redis::symfony::remaining_ms(redis_connection(*state), state->key,
                                                          state->token);
            break;
        case BackendKind::File:
            never_expires = held_here(*state) && state->file && state->file->held_and_linked();
            break;
        case BackendKind::Mysql:
            if (held_here(*state) && mysql_session_intact(*state)) {
                auto seconds = on_held_session([&] {
                    return mysql_protocol(*state->mysql, *state).remaining_seconds(state->key);
                });
                if (seconds) ms = std::max(0LL, *seconds) * 1000;
            }
            break;
        case BackendKind::None:
            break;
    }
    NL_CATCH_WITH(nativelock::php::native::throw_error, "Nativelock\\Lock::getRemainingLifetime()")
    if (rethrow_deferred()) RETURN_THROWS();
    if (never_expires || (ms && *ms < 0)) RETURN_NULL();
    if (!ms) RETURN_DOUBLE(0.0);
    // A key kept "for ever" (a null TTL, ~31 years) reads as no expiry.
    if (*ms >= static_cast<long long>(kNoLimitSeconds / 2) * 1000) RETURN_NULL();
    RETURN_DOUBLE(static_cast<double>(*ms) / 1000.0);
}

ZEND_METHOD(Nativelock_Lock, detach) {
    ZEND_PARSE_PARAMETERS_NONE();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    LockState *state = constructed(object);
    if (!state) RETURN_THROWS();
    state->detached = true;
    // Its TTL ends it now: a renewal would keep it beyond the request (and, in a worker, for
    // ever).
    stop_renewal(*state);
    state->auto_renew = false;
    untrack(object);
}

ZEND_METHOD(Nativelock_Lock, getKey) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    RETURN_STRINGL(state->key.data(), state->key.size());
}

ZEND_METHOD(Nativelock_Lock, getToken) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    RETURN_STRINGL(state->token.data(), state->token.size());
}

ZEND_METHOD(Nativelock_Lock, isShared) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    RETURN_BOOL(held_here(*state) && state->shared);
}

ZEND_METHOD(Nativelock_Lock, getFencingToken) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    if (!held_here(*state)) {
        zend_throw_exception(lock_exception_ce,
                             "Nativelock\\Lock::getFencingToken(): the lock is not held", 0);
        RETURN_THROWS();
    }
    if (state->fence <= 0) {
        if (state->fencing && state->config.kind == BackendKind::RedisSymfony) {
            zend_throw_exception(
                not_supported_exception_ce,
                "Nativelock\\Lock::getFencingToken(): RedisBackend::FORMAT_SYMFONY "
                "has no fencing tokens",
                0);
        } else {
            zend_throw_exception(lock_exception_ce,
                                 "Nativelock\\Lock::getFencingToken(): the lock was acquired "
                                 "without a fencing token (nativelock.fencing was off)",
                                 0);
        }
        RETURN_THROWS();
    }
    RETURN_LONG(static_cast<zend_long>(state->fence));
}

ZEND_METHOD(Nativelock_Lock, getBackend) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockState *state = constructed(Z_OBJ_P(ZEND_THIS));
    if (!state) RETURN_THROWS();
    RETURN_OBJ_COPY(state->backend);
}

void nativelock_native_lock_minit() {
    lock_ce->create_object = create_lock;
    LockObject::init_handlers(lock_handlers, free_lock);
}

void nativelock_native_rshutdown() {
    // Held locks were released by the registry drain; Redis connections are RedisLock's pools'
    // (its rshutdown sweeps them). MySQL: one idle session per server stays for the next
    // request; the others (opened because one process held a name twice) are closed.
    MysqlSessions *sessions = NATIVELOCK_G(native_mysql);
    if (!sessions) return;
    // A forked child's PDOs of its parent, still referenced: PHP frees what is left after this
    // in any order (a PDO before the backend that would have cut it off), so cut them off now.
    for (auto &[object, weak] : sessions->by_pdo) {
        std::shared_ptr<PooledSession> pooled = weak.lock();
        if (pooled && pooled->owner() != process::current_tag())
            nativelock::php::sharedlock::detach_inherited_pdo(object);
    }
    for (auto &[key, list] : sessions->by_params) {
        bool kept_one = false;
        list.erase(std::remove_if(list.begin(), list.end(),
                                  [&](const std::shared_ptr<PooledSession> &s) {
                                      if (!s->held.empty() || s.use_count() > 1) return false;
                                      if (!kept_one && NATIVELOCK_G(pool_idle_timeout) > 0 &&
                                          s->owner() == process::current_tag()) {
                                          kept_one = true;
                                          return false;
                                      }
                                      return true;
                                  }),
                   list.end());
    }
}

void nativelock_native_gshutdown(zend_nativelock_globals *globals) {
    delete globals->native_mysql;
    globals->native_mysql = nullptr;
}
