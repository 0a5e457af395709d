// The locks this request holds through SharedLock, and their release at request end: after
// destructors and every shutdown function (RSHUTDOWN), on the native session or through the PDO's
// own driver, never by a forked child for its parent.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <atomic>

#include "sharedlock_shim.h"

extern "C" {
#include "ext/pdo/php_pdo_driver.h"
}

#include "common/process.hpp"
#include "mysql/renewal.hpp"

namespace nativelock::php::sharedlock {

namespace core = nativelock::mysql;

namespace {

// Releases every held lock on the native session; a session that fails is dropped (which
// releases its GET_LOCKs server-side). Never calls PHP.
void release_native_held() noexcept {
    RequestState &s = st();
    core::NativeSession *native = s.held_native;
    if (native && s.held_owner == nativelock::process::current_tag() && native->connected()) {
        try {
            core::Protocol protocol(*native, quote_style());
            for (const HeldLock &lock : s.held) {
                if (lock.generation == native->generation()) protocol.release_at_end(lock.name);
            }
        } catch (...) {
            native->disconnect();
        }
    }
    s.held.clear();
    s.held_native = nullptr;
}

// Request end for locks taken through a PDO: the PDO is alive (the request state holds it) and
// destructors and shutdown functions have all run. Never calls PHP userland.
void release_pdo_held() noexcept {
    RequestState &s = st();
    zval *pdo = Z_TYPE(s.pdo) == IS_OBJECT ? &s.pdo : nullptr;
    if (pdo && s.held_owner == nativelock::process::current_tag()) {
        if (std::unique_ptr<core::Session> driver = driver_session(Z_OBJ_P(pdo))) {
            core::Protocol protocol(*driver, quote_style());
            for (const HeldLock &lock : s.held) {
                try {
                    protocol.release_at_end(lock.name);
                } catch (...) {
                    // Not ours anymore, or the connection is gone: its locks go with it.
                }
            }
        }
    }
    s.held.clear();
}

}  // namespace

void forget_held() {
    RequestState &s = st();
    s.held.clear();
    s.held_native = nullptr;
    nativelock::php::registry_remove(&s.entry);
}

void release_at_request_end(RegistryEntry *) noexcept {
    RequestState *state = request_state_if_any();
    if (!state) return;
    try {
        if (state->held_via_pdo) {
            release_pdo_held();
        } else {
            release_native_held();
        }
    } catch (...) {
    }
}

std::uint64_t track(const std::string &name, long long fence, long long ttl) {
    RequestState &s = st();
    // A forked child inherits its parent's list: those locks are the parent's (never released
    // here), and the child's own must be filed under the child to be released at its end.
    if (!s.held.empty() && s.held_owner != nativelock::process::current_tag()) forget_held();
    bool via_pdo = s.pdo_mode || !s.configured;
    if (s.held.empty()) {
        s.held_via_pdo = via_pdo;
        s.held_owner = nativelock::process::current_tag();
        s.held_native = via_pdo ? nullptr : s.native;
        s.entry.release = release_at_request_end;
        // Released in RSHUTDOWN, after destructors and every shutdown function (SPEC §2); locks
        // on a PDO through its driver, which the request state keeps alive until then.
        nativelock::php::registry_add(&s.entry);
    }
    static std::atomic<std::uint64_t> acquisitions{0};
    HeldLock lock;
    lock.name = name;
    const std::uint64_t id = ++acquisitions;
    lock.acquisition = id;
    lock.generation = via_pdo ? 0 : s.native->generation();
    lock.fence = fence;
    lock.ttl = ttl;
    s.held.push_back(std::move(lock));
    return id;
}

namespace {

// See held_lock(). The live lock of a name listed twice is the newest entry, so a release by
// name frees it first.
std::vector<HeldLock>::iterator find_held(RequestState &s, const std::string &name,
                                          std::uint64_t acquisition) {
    for (auto it = s.held.end(); it != s.held.begin();) {
        --it;
        if (it->name == name && (acquisition == 0 || it->acquisition == acquisition)) return it;
    }
    return s.held.end();
}

}  // namespace

HeldLock *held_lock(const std::string &name, std::uint64_t acquisition) {
    RequestState *s = request_state_if_any();
    if (!s || s->held_owner != nativelock::process::current_tag()) return nullptr;
    auto it = find_held(*s, name, acquisition);
    return it == s->held.end() ? nullptr : &*it;
}

void start_renewal(HeldLock &lock, nativelock::renew::Instant since) {
    RequestState &s = st();
    if (lock.lease.active() || s.held_via_pdo || !s.held_native) return;
    if (lock.ttl < 1 || lock.ttl >= core::kMaxTtlSeconds) return;  // no expiry worth renewing
    if (lock.generation != s.held_native->generation() || !s.held_native->connected()) return;
    // The renewer's own session extends the row of the session that holds GET_LOCK: it is
    // judged by that session's connection id and by a user lock only that session holds (ids
    // are reused after a server restart). Taking that lock (once per session) throws if the
    // session was replaced meanwhile: the lock went with the old one.
    std::string identity = s.held_native->identity_lock();
    lock.lease = nativelock::renew::Renewer::instance().start(
        core::make_renewal(s.held_native->params(), quote_style(), "shared_locks", lock.name,
                           s.held_native->connection_id(), lock.ttl, std::move(identity)),
        std::chrono::seconds(lock.ttl), since);
}

long long held_fence(const std::string &name, std::uint64_t acquisition) {
    const HeldLock *lock = held_lock(name, acquisition);
    return lock ? lock->fence : -1;
}

void untrack(const std::string &name, std::uint64_t acquisition) {
    RequestState &s = st();
    auto it = find_held(s, name, acquisition);
    if (it != s.held.end()) s.held.erase(it);
    if (s.held.empty()) forget_held();
}

// Releases what this request holds (PHP context: may use the PDO). Returns how many.
int release_all_held() {
    RequestState &s = st();
    int released = 0;
    if (s.held.empty()) return 0;
    if (s.held_owner != nativelock::process::current_tag()) {
        forget_held();  // the parent's locks: not ours to release
        return 0;
    }
    if (!s.held_via_pdo) {
        released = static_cast<int>(s.held.size());
        release_native_held();
        forget_held();
        return released;
    }
    std::vector<HeldLock> locks;
    locks.swap(s.held);
    forget_held();
    if (s.pdo_session) {
        core::Protocol protocol(*s.pdo_session, quote_style());
        for (const HeldLock &lock : locks) {
            try {
                if (protocol.release_at_end(lock.name)) ++released;
            } catch (const PhpBailout &) {
                throw;
            } catch (...) {
            }
        }
    }
    drop_previous();
    return released;
}

// Whether `name` was taken in this process on a native session that has since been replaced (a
// KILL, a server restart): its lock died with that session. Connection ids are reused after a
// restart, so only the session generation can tell.
bool held_by_an_earlier_session(const std::string &name, std::uint64_t acquisition) {
    RequestState &s = st();
    if (s.held_via_pdo || !s.native || s.held_owner != nativelock::process::current_tag())
        return false;
    auto it = find_held(s, name, acquisition);
    return it != s.held.end() && it->generation != s.native->generation();
}

}  // namespace nativelock::php::sharedlock
