// Shared pieces of the SharedLock shim:
//   sharedlock.cpp             the methods of SharedLock and SharedLockHandle, MINIT
//   sharedlock_session.cpp     request state, the pool of native sessions, which session a
//                              statement runs on (native or PDO), module hooks
//   sharedlock_held.cpp        locks held by this request and their release at request end
//   sharedlock_handle.cpp      SharedLockHandle objects and the acquisition each stands for
//   sharedlock_exceptions.cpp  the package's exception classes and the mapping of core errors
//   sharedlock_pdo_session.cpp the Session that runs statements through a PDO (pdo_session.h)
#pragma once

#include "php_nativelock.h"

#include "exceptions.h"

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/idle_pool.hpp"
#include "common/renewer.hpp"
#include "mysql/native_session.hpp"
#include "mysql/protocol.hpp"
#include "mysql/session.hpp"
#include "pdo_session.h"
#include "request_registry.h"

namespace nativelock::php::sharedlock {

using nativelock::php::RegistryEntry;

extern zend_class_entry *ce_shared_lock;
extern zend_class_entry *ce_handle;
extern zend_class_entry *ce_exception;
extern zend_class_entry *ce_acquire;
extern zend_class_entry *ce_timeout;
extern zend_class_entry *ce_release;
extern zend_class_entry *ce_remaining_ttl;
extern zend_class_entry *ce_table_repair;

// Throws new ce($lockName[, $extra], $message, 0, $previous); consumes `previous`.
void throw_lock_exception(zend_class_entry *ce, zval *lock_name, zval *extra,
                          const std::string &message, zend_object *previous);

// Native sessions of this process, reused across requests, keyed by connection parameters, and
// closed after standing unused for nativelock.pool_idle_timeout.
struct Pool {
    using Sessions = nativelock::IdlePool<nativelock::mysql::NativeSession>;
    nativelock::process::Tag owner;
    Sessions sessions;
};

// A lock this request holds, with the native session generation it was taken in (0 on a PDO):
// a lock of an older generation died with its session and is not released again.
struct HeldLock {
    std::string name;
    // The acquisition's id, which the SharedLockHandle that lock() returned for it carries too:
    // a name can be listed twice (a lock lost with its session, never released, and the name
    // taken again), and each handle must find its own.
    std::uint64_t acquisition = 0;
    std::uint64_t generation = 0;
    // The acquisition's fencing token (nativelock.fencing on), else 0.
    long long fence = 0;
    // The TTL it was taken with (whole seconds), for its auto-renewal.
    long long ttl = 0;
    // While auto-renewed (native driver only): the renewer thread's lease on its row.
    nativelock::renew::Lease lease;
    // Its renewal found it lost before it was stopped (setAutoRenew(false)): still lost.
    bool lease_lost = false;

    bool renewal_lost() const { return lease_lost || lease.lost(); }
    // Stops the auto-renewal (after a renewal in flight has landed), keeping what it found.
    void stop_renewal() noexcept {
        if (lease.lost()) lease_lost = true;
        lease.reset();
    }
};

// SharedLock's static state for one request (the package keeps it in static properties).
struct RequestState {
    bool configured = false;
    // The package's configuration, verbatim, for getConnection()'s PDO.
    zval config_host, config_db, config_user, config_password, config_charset, config_port,
        config_dsn;
    nativelock::mysql::ConnectParams params;
    int quote_style = 0;
    // PDO driver: the lock session's PDO (setConnection() or lazily opened).
    bool pdo_mode = false;
    zval pdo;
    // The process that set or opened `pdo`: a forked child must not destroy it (its QUIT
    // would end the parent's session).
    nativelock::process::Tag pdo_owner;
    // `pdo` was opened by us (the pdo driver after configureConnection()), not given by
    // setConnection(): a forked child may replace it with one of its own.
    bool pdo_opened_here = false;
    std::unique_ptr<PdoSession> pdo_session;
    // Native driver: getConnection()'s separate PDO, and the process that opened it.
    zval side_pdo;
    nativelock::process::Tag side_pdo_owner;
    nativelock::mysql::NativeSession *native = nullptr;
    // Keeps `native` open while this request may use it: the locks held on it live in that
    // session, and a sweep of the pool must neither end them nor leave `native` dangling.
    Pool::Sessions::Pin native_in_use;
    // Locks taken in this request and still held, with the session they belong to.
    std::vector<HeldLock> held;
    bool held_via_pdo = false;
    nativelock::process::Tag held_owner;
    nativelock::mysql::NativeSession *held_native = nullptr;
    RegistryEntry entry;

    RequestState() {
        for (zval *z : {&config_host, &config_db, &config_user, &config_password, &config_charset,
                        &config_port, &config_dsn, &pdo, &side_pdo})
            ZVAL_UNDEF(z);
    }
    void clear_config() {
        for (zval *z : {&config_host, &config_db, &config_user, &config_password, &config_charset,
                        &config_port, &config_dsn}) {
            zval_ptr_dtor(z);
            ZVAL_UNDEF(z);
        }
    }
    ~RequestState() {
        clear_config();
        pdo_session.reset();
        zval_ptr_dtor(&pdo);
        zval_ptr_dtor(&side_pdo);
    }
};

// The request's state (created on first use) and the process's pool of native sessions (renewed
// after fork). Both live in the module globals.
RequestState &st();
RequestState *request_state_if_any();
Pool &the_pool();
nativelock::mysql::QuoteStyle quote_style();
std::string str_of(zval *value);
bool driver_is_pdo();
// The session the next statement runs on: the native one of the configuration, or the PDO's.
nativelock::mysql::Session &session();
zend_class_entry *pdo_class();
// new PDO(...) exactly as the package's getConnection() builds it.
void open_pdo(zval *out);
// In a forked child: forgets the PDOs a parent opened (the pdo driver's, getConnection()'s on
// the native driver), cut off from the parent's connections first, so that freeing them sends
// nothing there and the child opens its own when it next needs one. The application's stays.
void drop_inherited_pdo_of_ours();
// Drops the current session's locks (as dropping the package's PDO does) before switching.
void release_before_switch();

// sharedlock_handle.cpp: SharedLockHandle objects carry the id of the acquisition lock() made
// them for (0 for one made with `new`; a clone keeps it).
void minit_handle_objects();
std::uint64_t handle_acquisition(zend_object *handle);
void set_handle_acquisition(zend_object *handle, std::uint64_t acquisition);

// sharedlock_held.cpp
// Returns the acquisition's id (never 0).
std::uint64_t track(const std::string &name, long long fence = 0, long long ttl = 0);
// The lock of `name` this process holds in this request, or nullptr. `acquisition` (a handle's,
// see handle_acquisition()): that acquisition's entry only, so a handle whose lock was released
// or lost never reaches a later lock of the name. 0 (the static calls, a handle made with
// `new`): the newest entry of the name, the package's by-name semantics.
HeldLock *held_lock(const std::string &name, std::uint64_t acquisition = 0);
// Starts auto-renewal of a lock held on the native session, whose row was given its TTL at
// `since` (no-op on a PDO, for a lock without expiry, or one already renewed). Throws if the
// thread cannot be started.
void start_renewal(HeldLock &lock, nativelock::renew::Instant since);
// Forgets the entry held_lock(name, acquisition) finds.
void untrack(const std::string &name, std::uint64_t acquisition = 0);
// The fencing token of `name` as this process holds it in this request: -1 if it does not hold
// it, 0 if it was taken without a token.
long long held_fence(const std::string &name, std::uint64_t acquisition = 0);
void forget_held();
int release_all_held();
// Whether the entry held_lock(name, acquisition) finds was taken on a native session that has
// since been replaced: that lock died with its session.
bool held_by_an_earlier_session(const std::string &name, std::uint64_t acquisition = 0);
void release_at_request_end(RegistryEntry *) noexcept;

// sharedlock_exceptions.cpp: the package's exception for a core error at an entry point,
// thrown after the C++ catch (NL_TRY … NL_CATCH_WITH(throw_sharedlock_error, op, name, extra)).
enum class Op { Lock, Unlock, AssertTTL, Repair, Other };
void throw_sharedlock_error(const PendingError &error, Op op, zval *name, zval *extra) noexcept;

void minit_exceptions();

}  // namespace nativelock::php::sharedlock
