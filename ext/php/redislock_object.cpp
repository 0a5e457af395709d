// RedisLock objects: lifecycle, the registry reference of a held lock, declared properties,
// the worker's shared state and the error mapping.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "redislock_object.h"

#include "common/error.hpp"
#include "common/process.hpp"
#include "redis/lock.hpp"
#include "redis/renewal.hpp"

namespace nativelock::php {

RedisLockGlobals &redislock_globals() {
    auto *&globals = NATIVELOCK_G(redislock);
    if (!globals) globals = new RedisLockGlobals();
    const auto idle_timeout = pool_idle_timeout();
    globals->pool.set_idle_timeout(idle_timeout);
    globals->subscribers.set_idle_timeout(idle_timeout);
    return *globals;
}

namespace redislock {

zend_class_entry *lock_ce;
zend_class_entry *fail_exception_ce;
zend_class_entry *connection_exception_ce;

namespace {

zend_object_handlers lock_handlers;

// The registry's release at request end (SPEC §2): deletes the key unless auto_release is off,
// the lock is the parent's, or its endpoint already failed at this request end; then drops the
// registry's reference.
void release_key_and_reference_at_request_end(RegistryEntry *entry) noexcept {
    LockObject *self = LockObject::from_entry<&LockState::entry>(entry);
    auto &state = self->state;
    try {
        if (state.held && state.owner == process::current_tag() && NATIVELOCK_G(auto_release)) {
            std::string endpoint = state.params->pool_key();
            auto &globals = redislock_globals();
            if (globals.failed_at_shutdown != endpoint) {
                try {
                    release_key(state);
                } catch (const ConnectionError &) {
                    globals.failed_at_shutdown = endpoint;
                }
            }
        }
    } catch (...) {
        // Nothing to report to at request end; the key expires at its TTL.
    }
    mark_not_held(state);
    // The registry's reference. Released, not just decremented: the object store only calls
    // free_obj on objects still alive after RSHUTDOWN and never frees their memory (PHP shows
    // them as leaks; valgrind found them). No user destructor can run here: by RSHUTDOWN every
    // object is marked destructed (after __destruct calls, or by the fatal error handler).
    OBJ_RELEASE(&self->std);
}

void free_object(zend_object *object) {
    auto &state = state_of(object);
    // Still linked only while the object store is torn down: the reference is moot then.
    untrack(state);
    if (state.held && NATIVELOCK_G(auto_release)) {
        try {
            release_key(state);
        } catch (...) {
        }
    }
    LockObject::destroy(object);
}

const char *const kPropertyNames[] = {"name", "value", "failBehavior", "timeout", "needsRelease"};
constexpr int kPropertyCount = sizeof kPropertyNames / sizeof kPropertyNames[0];
uint32_t property_offsets[kPropertyCount];

}  // namespace

zend_object *create_object(zend_class_entry *ce) {
    zend_object *object = LockObject::create(ce, &lock_handlers);
    auto &entry = state_of(object).entry;
    entry.release = release_key_and_reference_at_request_end;
    return object;
}

void init_handlers() {
    LockObject::init_handlers(lock_handlers, free_object);
}

bool is_lock_entry(const RegistryEntry *entry) {
    return entry->release == release_key_and_reference_at_request_end;
}

zend_object *object_of_entry(RegistryEntry *entry) {
    return &LockObject::from_entry<&LockState::entry>(entry)->std;
}

void release_key(LockState &state) {
    if (!state.held) return;
    if (state.owner != process::current_tag()) {
        // Taken by the parent before fork(): the child never releases it.
        mark_not_held(state);
        return;
    }
    // The renewal goes on until the release has succeeded (mark_not_held() then ends it, after
    // a renewal in flight has landed: none can reach a later lock() with this value).
    auto &conn = redislock_globals().pool.get(*state.params);
    redis::release(conn, state.key, state.value);
    mark_not_held(state);
}

std::unique_ptr<renew::Renewal> make_renewal_for(const LockState &state, long long ttl_seconds) {
    if (!state.held || state.owner != process::current_tag()) return nullptr;
    if (!renewable_ttl(ttl_seconds)) return nullptr;  // no expiry: nothing to renew
    return redis::make_renewal(*state.params, state.key, state.value, ttl_seconds * 1000);
}

void start_renewal(LockState &state, nativelock::renew::Instant since) {
    if (state.lease.active()) return;
    std::unique_ptr<renew::Renewal> renewal = make_renewal_for(state, state.key_ttl);
    if (!renewal) return;
    state.lease = renew::Renewer::instance().start(std::move(renewal),
                                                   std::chrono::seconds(state.key_ttl), since);
}

void track(zend_object *object) {
    auto &state = state_of(object);
    if (state.entry.linked) return;
    registry_add(&state.entry);
    GC_ADDREF(object);
}

bool untrack(LockState &state) {
    if (!state.entry.linked) return false;
    registry_remove(&state.entry);
    return true;
}

LockState *constructed_state(zend_object *object) {
    auto &state = state_of(object);
    if (state.constructions == 0) {
        zend_throw_error(nullptr, "%s object is not initialized: its constructor was not called",
                         ZSTR_VAL(object->ce->name));
        return nullptr;
    }
    return &state;
}

bool overridden(zend_class_entry *ce, const char *lcname, size_t len) {
    if (ce == lock_ce) return false;
    auto *fn =
        static_cast<zend_function *>(zend_hash_str_find_ptr(&ce->function_table, lcname, len));
    return fn && fn->common.scope != lock_ce;
}

zend_string *default_key(const LockState &state) {
    constexpr size_t prefix = sizeof("redislock:") - 1;
    zend_string *key = zend_string_alloc(prefix + state.name.size(), 0);
    memcpy(ZSTR_VAL(key), "redislock:", prefix);
    memcpy(ZSTR_VAL(key) + prefix, state.name.data(), state.name.size());
    ZSTR_VAL(key)[ZSTR_LEN(key)] = '\0';
    return key;
}

void write_property(zend_object *object, PropertySlot slot, zval *value) {
    if (object->ce == lock_ce) {
        zval *target = OBJ_PROP(object, property_offsets[slot]);
        zval old;
        ZVAL_COPY_VALUE(&old, target);
        ZVAL_COPY(target, value);
        zval_ptr_dtor(&old);
        return;
    }
    zend_update_property(lock_ce, object, kPropertyNames[slot], strlen(kPropertyNames[slot]),
                         value);
}

void set_needs_release(zend_object *object, bool value) {
    zval v{};  // zeroed: GCC cannot see that ZVAL_COPY leaves a bool's value alone
    ZVAL_BOOL(&v, value);
    write_property(object, kPropNeedsRelease, &v);
}

void init_properties() {
    for (int i = 0; i < kPropertyCount; ++i) {
        auto *info = static_cast<zend_property_info *>(zend_hash_str_find_ptr(
            &lock_ce->properties_info, kPropertyNames[i], strlen(kPropertyNames[i])));
        ZEND_ASSERT(info);
        property_offsets[i] = info->offset;
    }
}

bool throw_error(const PendingError &error) noexcept {
    return throw_pending_error_as(error, error.category == ErrorCategory::ConnectionError
                                             ? connection_exception_ce
                                             : fail_exception_ce);
}

}  // namespace redislock
}  // namespace nativelock::php

void nativelock_redislock_gshutdown(zend_nativelock_globals *globals) {
    delete globals->redislock;
    globals->redislock = nullptr;
}
