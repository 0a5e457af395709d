// Filelock: the PHP face of nativelock::file::LockFile.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php_nativelock.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "ext/date/php_date.h"
#include "ext/standard/info.h"
#include "ext/standard/php_filestat.h"
#include "ext/standard/php_var.h"
#include "ext/spl/spl_exceptions.h"
#include "zend_smart_str.h"
}

#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "common/process.hpp"
#include "common/random.hpp"
#include "exceptions.h"
#include "interrupts.h"
#include "native_object.h"
#include "file/local_queue.hpp"
#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/record.hpp"
#include "file/release_waiter.hpp"
#include "request_registry.h"

#define LOCKFILE_SUCCESS 1
#define LOCKFILE_ERROR_ALREADY_LOCKED -1
#define LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK -2

#include "filelock_arginfo.h"

namespace {

using nativelock::file::LockFile;
using nativelock::file::Status;
using nativelock::php::RegistryEntry;

zend_class_entry *filelock_ce;
zend_object_handlers filelock_handlers;

// C++ state, placement-constructed inside the zend_object allocation.
struct FilelockState {
    std::string name;
    std::unique_ptr<LockFile> lock;
    RegistryEntry held_entry;
};

using FilelockObject = nativelock::php::NativeObject<FilelockState>;

FilelockObject *from_object(zend_object *object) {
    return FilelockObject::from(object);
}

// Unlinks the lock file if this object still holds it; never throws (request end, free_obj).
void release_quietly(FilelockState &state) noexcept {
    try {
        if (state.lock) state.lock->release();
    } catch (...) {
        // Nothing to report to; the lock file stays as after a crash.
    }
}

// Runs at request end (RSHUTDOWN) for locks still held, after destructors and shutdown
// functions, then drops the registry's reference (no user destructor can run by then). The
// setting is read now, as RedisLock's is: a script that turned auto_release off keeps its locks.
void release_at_request_end(RegistryEntry *entry) noexcept {
    FilelockObject *self = FilelockObject::from_entry<&FilelockState::held_entry>(entry);
    if (NATIVELOCK_G(auto_release)) release_quietly(self->state);
    OBJ_RELEASE(&self->std);
}

zend_object *create_object(zend_class_entry *ce) {
    zend_object *object = FilelockObject::create(ce, &filelock_handlers);
    FilelockObject::state_of(object).held_entry.release = release_at_request_end;
    return object;
}

// Releasing here (not in dtor_obj) covers objects destroyed mid-request; RSHUTDOWN has
// already released and unlinked anything still held when the request ended.
void free_object(zend_object *object) {
    auto *self = from_object(object);
    // Still linked only when taken after RSHUTDOWN, by user code that ran later: unlinked, so
    // that the list never leads to a freed object.
    nativelock::php::registry_remove(&self->state.held_entry);
    // A held lock is tracked with a reference, so only untracked objects get here holding
    // (nativelock.auto_release=0 keeps the lock like the original, which never releases).
    if (NATIVELOCK_G(auto_release)) release_quietly(self->state);
    FilelockObject::destroy(object);
}

// var_dump()/print_r() show what the original's private properties showed.
HashTable *debug_info(zend_object *object, int *is_temp) {
    auto &state = from_object(object)->state;
    HashTable *info = zend_new_array(3);
    zval value;
    ZVAL_STRINGL(&value, state.name.data(), state.name.size());
    zend_hash_str_update(info, "name", sizeof("name") - 1, &value);
    if (state.lock) {
        ZVAL_STRINGL(&value, state.lock->path().data(), state.lock->path().size());
    } else {
        ZVAL_NULL(&value);
    }
    zend_hash_str_update(info, "filename", sizeof("filename") - 1, &value);
    ZVAL_BOOL(&value, state.lock && state.lock->held_by_us());
    zend_hash_str_update(info, "i_locked", sizeof("i_locked") - 1, &value);
    *is_temp = 1;
    return info;
}

LockFile *lock_of(zend_object *object) {
    LockFile *lock = from_object(object)->state.lock.get();
    if (!lock)
        zend_throw_error(nullptr,
                         "Filelock object is not initialized: its constructor was not called");
    return lock;
}

// date('d-m-Y H:i:s'), cached for the current second.
const char *timestamp_now() {
    time_t now = time(nullptr);
    if (now != NATIVELOCK_G(timestamp_second) || !NATIVELOCK_G(timestamp_text)[0]) {
        zend_string *text = php_format_date("d-m-Y H:i:s", sizeof("d-m-Y H:i:s") - 1, now, 1);
        snprintf(NATIVELOCK_G(timestamp_text), sizeof NATIVELOCK_G(timestamp_text), "%s",
                 ZSTR_VAL(text));
        zend_string_release(text);
        NATIVELOCK_G(timestamp_second) = now;
    }
    return NATIVELOCK_G(timestamp_text);
}

nativelock::file::OwnerRecord default_record(const std::string &name) {
    const auto &self = nativelock::process::self();
    nativelock::file::OwnerRecord record;
    record.pid = self.pid;
    record.timestamp = timestamp_now();
    record.name = name;
    record.host = self.host;
    record.boot_id = self.boot_id;
    record.machine_id = self.machine_id;
    record.pid_namespace = self.pid_namespace;
    record.start_ticks = self.start_ticks;
    record.token = nativelock::random::hex_token(16);
    return record;
}

bool bake_data_overridden(zend_object *object) {
    if (object->ce == filelock_ce) return false;
    auto *fn = static_cast<zend_function *>(
        zend_hash_str_find_ptr(&object->ce->function_table, "bake_data", sizeof("bake_data") - 1));
    return fn && fn->common.scope != filelock_ce;
}

// The serialized owner record. An overriding bake_data() is called (it is user code, so no
// C++ object with a destructor is alive here) and serialize()d like the original does.
zend_string *owner_record(zend_object *object) {
    if (!bake_data_overridden(object)) return nullptr;
    zval data;
    zend_call_method_with_0_params(object, object->ce, nullptr, "bake_data", &data);
    if (EG(exception)) {
        zval_ptr_dtor(&data);
        return nullptr;
    }
    smart_str buf = {};
    php_serialize_data_t var_hash;
    PHP_VAR_SERIALIZE_INIT(var_hash);
    php_var_serialize(&buf, &data, &var_hash);
    PHP_VAR_SERIALIZE_DESTROY(var_hash);
    zval_ptr_dtor(&data);
    if (EG(exception)) {
        smart_str_free(&buf);
        return nullptr;
    }
    return smart_str_extract(&buf);
}

// A held lock lives until unlock() or request end (SPEC §2), like the original's, even when its
// object goes out of scope: the registry keeps a reference while it holds.
void track(zend_object *object) {
    RegistryEntry &entry = from_object(object)->state.held_entry;
    if (!NATIVELOCK_G(auto_release) || entry.linked) return;
    nativelock::php::registry_add(&entry);
    GC_ADDREF(object);
}

void untrack(zend_object *object) {
    RegistryEntry &entry = from_object(object)->state.held_entry;
    if (!entry.linked) return;
    nativelock::php::registry_remove(&entry);
    OBJ_RELEASE(object);  // the caller's $this keeps it alive
}

// The owner record for one attempt: the serialized bake_data() of an override, else built
// natively. May throw (bad_alloc, getrandom): call inside the exception guard.
std::string record_text(zend_object *object, const zend_string *custom) {
    if (custom) return std::string(ZSTR_VAL(custom), ZSTR_LEN(custom));
    return nativelock::file::encode_own(from_object(object)->state.name, timestamp_now());
}

// bake_data() for the next attempt, then the lock. An override is user code: it may re-run the
// constructor and free the LockFile, so the lock is looked up only after it ran. Returns
// nullptr with an exception pending (the override threw, or the object is not constructed);
// otherwise *custom owns the override's record (or is nullptr).
LockFile *prepare_attempt(zend_object *object, zend_string **custom) {
    *custom = owner_record(object);
    if (EG(exception)) return nullptr;
    LockFile *lock = lock_of(object);
    if (!lock && *custom) {
        zend_string_release(*custom);
        *custom = nullptr;
    }
    return lock;
}

// link() and unlink() of the lock file, as the original's made them: PHP's stat cache must not
// keep answering for the old file (is_file() right after unlock()).
void forget_stat_cache(bool clear_realpath_cache) {
    php_clear_stat_cache(clear_realpath_cache, nullptr, 0);
}

// Whether `path` is the key PHP's realpath cache files it under: absolute, with no empty, "."
// or ".." component and no trailing slash (a relative path is keyed by the cwd it was
// resolved in).
bool is_realpath_cache_key(const std::string &path) {
    if (path.empty() || path[0] != '/' || path.back() == '/') return false;
    std::size_t start = 1;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string::npos) end = path.size();
        const std::string_view part(path.data() + start, end - start);
        if (part.empty() || part == "." || part == "..") return false;
        start = end + 1;
    }
    return true;
}

// After the lock file was removed. The original's unlink() emptied PHP's whole realpath cache
// (a walk over all its buckets, on every unlock); only the lock file's own entry can have gone
// stale (realpath() would still resolve the removed file), so only it is dropped when its key
// is known.
void forget_lock_file(const std::string &path) {
    if (is_realpath_cache_key(path)) {
        php_clear_stat_cache(true, path.data(), path.size());
    } else {
        forget_stat_cache(true);
    }
}

}  // namespace

// The owner record Filelock writes, for the native API's FileBackend (native_lock.cpp).
nativelock::file::OwnerRecord nativelock_filelock_owner_record(const std::string &name) {
    return default_record(name);
}

ZEND_METHOD(Filelock, __construct) {
    zend_string *name;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_STR(name)
    ZEND_PARSE_PARAMETERS_END();

    // Like the original, the path is fixed at construction from Filelock::$lockpath.
    zval *lockpath_zv =
        zend_read_static_property(filelock_ce, "lockpath", sizeof("lockpath") - 1, 0);
    zend_string *lockpath = lockpath_zv ? zval_try_get_string(lockpath_zv) : ZSTR_EMPTY_ALLOC();
    if (!lockpath) RETURN_THROWS();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    auto &state = from_object(object)->state;
    bool was_held = false;
    std::string released_path;
    nativelock::php::PendingError error;
    try {
        std::string path = nativelock::file::lock_file_path(
            std::string_view(ZSTR_VAL(lockpath), ZSTR_LEN(lockpath)),
            std::string_view(ZSTR_VAL(name), ZSTR_LEN(name)));
        if (state.lock && state.lock->held_by_us()) {
            released_path = state.lock->path();
            state.lock->release();
            was_held = true;
        }
        state.name.assign(ZSTR_VAL(name), ZSTR_LEN(name));
        state.lock = std::make_unique<LockFile>(std::move(path));
    } catch (...) {
        nativelock::php::capture_current_exception(error);
    }
    zend_string_release(lockpath);
    if (was_held) {
        untrack(object);
        forget_lock_file(released_path);
    }
    if (error) {
        nativelock::php::throw_pending_error(error, nullptr, nullptr);
        RETURN_THROWS();
    }
}

ZEND_METHOD(Filelock, is_locked) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockFile *lock = lock_of(Z_OBJ_P(ZEND_THIS));
    if (!lock) RETURN_THROWS();
    NL_TRY
    RETURN_BOOL(lock->is_locked());
    NL_CATCH(nullptr, "Filelock::is_locked()")
}

namespace {

// nativelock.fencing: the acquisition's token, drawn while holding. A lock whose token cannot be
// drawn (unwritable directory, corrupt counter) is given back with a warning: false (the caller
// reports LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK).
bool draw_fence_or_give_back(LockFile *lock) {
    if (!NATIVELOCK_G(fencing)) return true;
    nativelock::php::PendingError error;
    try {
        lock->draw_fence();
        return true;
    } catch (...) {
        nativelock::php::capture_current_exception(error);
    }
    try {
        lock->release();
    } catch (...) {
    }
    php_error_docref(nullptr, E_WARNING, "Fencing token not drawn, lock given back: %s",
                     error.message);
    return false;
}

}  // namespace

ZEND_METHOD(Filelock, try_lock) {
    ZEND_PARSE_PARAMETERS_NONE();
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    if (!lock_of(object)) RETURN_THROWS();
    zend_string *custom;
    LockFile *lock = prepare_attempt(object, &custom);
    if (!lock) RETURN_THROWS();
    Status status = Status::FailedToObtain;
    nativelock::php::PendingError error;
    try {
        status = lock->try_acquire(record_text(object, custom));
    } catch (...) {
        nativelock::php::capture_current_exception(error);
    }
    if (custom) zend_string_release(custom);
    if (error) {
        nativelock::php::throw_pending_error(error, nullptr, "Filelock::try_lock()");
        RETURN_THROWS();
    }
    if (status == Status::Acquired && !draw_fence_or_give_back(lock)) {
        status = Status::FailedToObtain;
        if (EG(exception)) RETURN_THROWS();
    }
    if (status == Status::Acquired) {
        track(object);
        forget_stat_cache(false);
    }
    RETURN_LONG(static_cast<zend_long>(status));
}

// Once per process: without inotify a waiting head polls the lock file (up to 100 ms late),
// which whoever runs the host should hear about. A failure seen by a wait that got the lock is
// reported by the next lock() call, before it waits.
void report_inotify_fallback() {
    int error = nativelock::file::take_inotify_failure();
    if (!error) return;
    php_error_docref(
        nullptr, E_NOTICE, "Filelock waits poll the lock file: inotify is unavailable (%s)%s",
        strerror(error),
        error == EMFILE ? "; raise fs.inotify.max_user_instances or the open-file limit" : "");
}

// Fetched again: the handler or bake_data() may have re-run the constructor, which replaced
// (and with it left the queue of) the LockFile the round used.
void abandon_wait(zend_object *object) {
    if (LockFile *lock = from_object(object)->state.lock.get()) lock->abandon_wait();
}

// Where the timestamp of the default record a round of lock() waited with is, and the second it
// says (size 0 for a bake_data() override: user code, not called again). Plain data: lock()
// may leave by zend_bailout(), which runs no destructor.
struct RoundRecord {
    std::size_t size = 0;    // of the whole record
    std::size_t offset = 0;  // of the timestamp's text in it
    time_t stamped = 0;
    char stamp[32] = "";  // as NATIVELOCK_G(timestamp_text)
};

// One round of lock(): bake_data(), then wait until acquired, the deadline, or a pending
// interrupt. Returns false with a PHP exception pending.
bool lock_round(zend_object *object, const nativelock::Deadline &deadline,
                nativelock::file::WaitResult *result, RoundRecord *made) {
    zend_string *custom;
    LockFile *lock = prepare_attempt(object, &custom);
    if (!lock) return false;
    nativelock::php::PendingError error;
    try {
        const std::string text = record_text(object, custom);
        *made = RoundRecord{};
        if (!custom) {
            const std::string_view stamp = NATIVELOCK_G(timestamp_text);
            const std::size_t at = nativelock::file::find_timestamp(text, stamp);
            if (at != std::string_view::npos && stamp.size() < sizeof made->stamp) {
                made->size = text.size();
                made->offset = at;
                made->stamped = NATIVELOCK_G(timestamp_second);
                std::memcpy(made->stamp, stamp.data(), stamp.size() + 1);
            }
        }
        *result = lock->acquire(text, deadline, nativelock::php::interrupt_pending);
    } catch (...) {
        nativelock::php::capture_current_exception(error);
    }
    if (custom) zend_string_release(custom);
    if (!error) return true;
    nativelock::php::throw_pending_error(error, nullptr, "Filelock::lock()");
    return false;
}

// A lock taken after waiting says when it was taken, as the original's did (it made a new record
// at every 100 ms try): the round's record, written as the wait began, gets the timestamp of
// now once the second changed. Only the timestamp changes, at the same length; a bake_data()
// override's record, and records on shared filesystems, stay as written.
void refresh_after_wait(LockFile *lock, const RoundRecord &made) noexcept {
    if (made.size == 0 || time(nullptr) == made.stamped) return;
    const char *now = timestamp_now();
    if (std::strlen(now) != std::strlen(made.stamp)) return;
    lock->overwrite_record(made.offset, now, made.size);
}

ZEND_METHOD(Filelock, lock) {
    double timeout = 0;
    bool timeout_is_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_DOUBLE_OR_NULL(timeout, timeout_is_null)
    ZEND_PARSE_PARAMETERS_END();
    if (!timeout_is_null && (std::isnan(timeout) || timeout < 0)) {
        zend_argument_value_error(1, "must be null or a number of seconds >= 0");
        RETURN_THROWS();
    }
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    if (!lock_of(object)) RETURN_THROWS();
    // Raised only while this call holds nothing (here, or after a wait that did not get the
    // lock): an error handler runs user code, which may throw or re-run the constructor.
    report_inotify_fallback();
    if (EG(exception)) RETURN_THROWS();
    // INF and anything >= Deadline::kUnlimitedSeconds mean no limit, like null.
    const auto deadline =
        timeout_is_null ? nativelock::Deadline::never() : nativelock::Deadline::after(timeout);
    // Signals do not end the wait (SPEC §2): pending handlers run between rounds, as they would
    // between two statements, and the wait goes on with the same deadline.
    RoundRecord made;
    for (;;) {
        nativelock::file::WaitResult result{Status::FailedToObtain};
        if (!lock_round(object, deadline, &result, &made)) {
            abandon_wait(object);
            RETURN_THROWS();
        }
        if (!result.interrupted) {
            if (result.status == Status::Acquired) {
                LockFile *held = lock_of(object);
                if (!held) RETURN_THROWS();
                refresh_after_wait(held, made);
                if (!draw_fence_or_give_back(held)) {
                    if (EG(exception)) RETURN_THROWS();
                    RETURN_LONG(static_cast<zend_long>(Status::FailedToObtain));
                }
                track(object);
                forget_stat_cache(false);
                RETURN_LONG(static_cast<zend_long>(result.status));
            }
            report_inotify_fallback();
            if (EG(exception)) RETURN_THROWS();
            RETURN_LONG(static_cast<zend_long>(result.status));
        }
        // An interrupted round kept our place in the host's queue for the next round; a handler
        // that ends the wait must hand it on, or the waiters behind us would stall.
        switch (nativelock::php::run_pending_interrupts()) {
            case nativelock::php::AfterInterrupt::KeepWaiting:
                break;
            case nativelock::php::AfterInterrupt::Exception:
                abandon_wait(object);
                RETURN_THROWS();
            case nativelock::php::AfterInterrupt::Bailout:
                abandon_wait(object);
                zend_bailout();
        }
    }
}

ZEND_METHOD(Filelock, unlock) {
    zval *force = nullptr;
    ZEND_PARSE_PARAMETERS_START(0, 1)
    Z_PARAM_OPTIONAL
    Z_PARAM_ZVAL(force)
    ZEND_PARSE_PARAMETERS_END();
    bool forced = force && zend_is_true(force);
    zend_object *object = Z_OBJ_P(ZEND_THIS);
    LockFile *lock = lock_of(object);
    if (!lock) RETURN_THROWS();
    NL_TRY
    if (forced) {
        lock->force_release();
    } else {
        lock->release();
    }
    NL_CATCH(nullptr, "Filelock::unlock()")
    forget_lock_file(lock->path());  // before untrack(): no PHP code has run since lock_of()
    untrack(object);
}

ZEND_METHOD(Filelock, getFencingToken) {
    ZEND_PARSE_PARAMETERS_NONE();
    LockFile *lock = lock_of(Z_OBJ_P(ZEND_THIS));
    if (!lock) RETURN_THROWS();
    if (!lock->held_by_us()) {
        zend_throw_exception(spl_ce_RuntimeException,
                             "Filelock::getFencingToken(): the lock is not held", 0);
        RETURN_THROWS();
    }
    if (lock->fence() <= 0) {
        zend_throw_exception(spl_ce_RuntimeException,
                             "Filelock::getFencingToken(): the lock was acquired without a "
                             "fencing token (nativelock.fencing was off)",
                             0);
        RETURN_THROWS();
    }
    RETURN_LONG(static_cast<zend_long>(lock->fence()));
}

ZEND_METHOD(Filelock, bake_data) {
    ZEND_PARSE_PARAMETERS_NONE();
    auto &state = from_object(Z_OBJ_P(ZEND_THIS))->state;
    nativelock::file::OwnerRecord record;
    NL_TRY
    record = default_record(state.name);
    NL_CATCH(nullptr, "Filelock::bake_data()")
    array_init_size(return_value, 9);
    add_assoc_long(return_value, "mypid", static_cast<zend_long>(*record.pid));
    add_assoc_stringl(return_value, "timestamp", record.timestamp.data(), record.timestamp.size());
    add_assoc_stringl(return_value, "name", record.name.data(), record.name.size());
    add_assoc_stringl(return_value, "host", record.host.data(), record.host.size());
    add_assoc_stringl(return_value, "boot_id", record.boot_id.data(), record.boot_id.size());
    add_assoc_stringl(return_value, "pidns", record.pid_namespace.data(),
                      record.pid_namespace.size());
    add_assoc_long(return_value, "start_time", static_cast<zend_long>(*record.start_ticks));
    add_assoc_stringl(return_value, "token", record.token.data(), record.token.size());
    add_assoc_stringl(return_value, "machine_id", record.machine_id.data(),
                      record.machine_id.size());
}

void nativelock_filelock_minit(int module_number) {
    register_filelock_symbols(module_number);
    filelock_ce = register_class_Filelock();
    filelock_ce->create_object = create_object;
    FilelockObject::init_handlers(filelock_handlers, free_object);
    filelock_handlers.get_debug_info = debug_info;
}

void nativelock_filelock_rshutdown() {
    // An instance counts against fs.inotify.max_user_instances (per user, 128 by default): a
    // worker gives its instance back at the end of a request once no wait has used it for a
    // second (a worker that then gets no request keeps it until its next). Not at the end of
    // every request that waited: closing it takes milliseconds on a busy machine (the kernel
    // waits for an RCU grace period), which under a hot lock delayed the end of every request.
    nativelock::file::give_back_inotify(std::chrono::seconds(1));
}

void nativelock_filelock_minfo() {
    nativelock::file::InotifyStatus inotify = nativelock::file::inotify_status();
    char events[200];
    if (inotify.last_error) {
        snprintf(events, sizeof events,
                 "inotify unavailable (%s): %llu waits polled; %llu instances opened",
                 strerror(inotify.last_error), inotify.polled_waits, inotify.opened);
    } else {
        snprintf(events, sizeof events,
                 "inotify, %s; %llu instances opened and %llu given back in this process, "
                 "%llu waits polled",
                 inotify.open ? "an instance open" : "no instance open", inotify.opened,
                 inotify.given_back, inotify.polled_waits);
    }
    php_info_print_table_start();
    php_info_print_table_header(2, "Filelock", "enabled");
    // Whether newcomers may take a free lock in the first millisecond of a headship: not while
    // this process cannot write the headship table.
    const char *queue =
        "per host and user, first come first served after a 1 ms barging window per headship "
        "(as Go's sync.Mutex); only the head watches the lock file";
    char failed[240];
    if (const int error = nativelock::file::headship_write_error()) {
        snprintf(failed, sizeof failed,
                 "per host and user, first come first served: no barging window (the headship "
                 "table could not be written: %s); only the head watches the lock file",
                 strerror(error));
        queue = failed;
    }
    php_info_print_table_row(2, "Filelock queue", queue);
    php_info_print_table_row(2, "Filelock release events", events);
    // How a local filesystem's unnamed record file takes the lock's name in this process.
    const char *linking =
        "by descriptor (linkat AT_EMPTY_PATH) where the kernel allows it; "
        "no record linked yet in this process";
    switch (LockFile::descriptor_linking()) {
        case LockFile::DescriptorLinking::Linked:
            linking = "by descriptor (linkat AT_EMPTY_PATH)";
            break;
        case LockFile::DescriptorLinking::Refused:
            linking =
                "through /proc/thread-self/fd, or as named temp files where /proc is missing: "
                "the kernel refused AT_EMPTY_PATH (before Linux 6.10 without "
                "CAP_DAC_READ_SEARCH, or a security module)";
            break;
        case LockFile::DescriptorLinking::Untried:
            break;
    }
    php_info_print_table_row(2, "Filelock records linked", linking);
    php_info_print_table_end();
}

void nativelock_filelock_rinit() {
    // Filelock::$lockpath starts each request at the INI default.
    const char *path = NATIVELOCK_G(lockpath) ? NATIVELOCK_G(lockpath) : "/tmp/";
    zend_update_static_property_string(filelock_ce, "lockpath", sizeof("lockpath") - 1, path);
}
