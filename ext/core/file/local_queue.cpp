#include "file/local_queue.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <vector>
#include <unordered_set>

#include "common/process.hpp"

namespace nativelock::file {
namespace {

// A slot is an even offset below 2^62 (its place byte), and its presence byte is the next one:
// read-locked by each process in the queue, from join() to leave(). Side by side, one
// F_OFD_GETLK over both tells a newcomer whether anyone waits (each fcntl is a system call,
// about 5 % of an uncontended cycle on a virtual machine). The highest offset stays far below
// the largest off_t, so start + length - 1 never overflows.
constexpr std::uint64_t kSlotMask = ((std::uint64_t{1} << 62) - 1) & ~std::uint64_t{1};
// How long a newcomer lets the place pass from a head that left to the waiter the kernel woke
// (its wake-up on a busy machine), and how often it looks meanwhile.
std::atomic<std::chrono::steady_clock::duration::rep> passing_place_wait{
    std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::milliseconds(20))
        .count()};
constexpr int kPassingPlaceLookUs = 100;

// Bumped at every fork, in parent and child: an open file description made before a fork is
// shared with the other process, and a lock taken through it later would outlive its taker
// (a crashed parent's place held for as long as a child lives).
std::atomic<unsigned> fork_generation{0};
// How long after a headship began a newcomer may still try a free lock (Go's 1 ms).
std::atomic<std::int64_t> barging_window_us{1000};
// The waiting thread needs little: one fcntl, one write, and cancellation's unwinding.
constexpr std::size_t kThreadStackBytes = 64 * 1024;

// FNV-1a: the same in every process (and computable in PHP, tests/lib/nativelock_test.inc).
std::uint64_t fnv1a(const std::string &bytes) {
    std::uint64_t hash = 14695981039346656037ull;
    for (unsigned char c : bytes) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

// A directory's device and inode, as stat() gave them within the last second. Each new
// Filelock object asks (a new object per acquisition is the usual use), and the stat() was
// about a twelfth of an uncontended cycle. Only absolute paths are kept (a relative one moves
// with chdir()). A directory replaced under its path (a deploy's symlink switch) is taken for
// the old one for up to that second: the slot only orders waiters, the link protocol decides
// who holds, so that costs fairness for a moment, never exclusion.
struct DirectoryIdentity {
    std::string path;
    dev_t dev = 0;
    ino_t ino = 0;
    std::int64_t seen_ms = 0;
};
constexpr std::int64_t kDirectoryIdentityMs = 1000;
constexpr std::size_t kDirectoryIdentities = 4;
thread_local DirectoryIdentity directory_identities[kDirectoryIdentities];
thread_local std::size_t next_directory_identity = 0;

std::uint64_t monotonic_us() {
    timespec now;
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1000000u +
           static_cast<std::uint64_t>(now.tv_nsec) / 1000u;
}

bool directory_identity(const std::string &dir, dev_t *dev, ino_t *ino) {
    // Absolute paths only: a relative one moves with chdir().
    DirectoryIdentity *known = nullptr;
    std::int64_t now = 0;
    if (!dir.empty() && dir[0] == '/') {
        now = static_cast<std::int64_t>(monotonic_us() / 1000);
        for (DirectoryIdentity &entry : directory_identities)
            if (entry.path == dir) known = &entry;
        // Bounded below too: a child in a new time namespace may read an earlier clock.
        if (known && now >= known->seen_ms && now - known->seen_ms < kDirectoryIdentityMs) {
            *dev = known->dev;
            *ino = known->ino;
            return true;
        }
        if (!known) {
            known = &directory_identities[next_directory_identity];
            next_directory_identity = (next_directory_identity + 1) % kDirectoryIdentities;
        }
    }
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0) return false;
    *dev = st.st_dev;
    *ino = st.st_ino;
    if (known) *known = DirectoryIdentity{dir, st.st_dev, st.st_ino, now};
    return true;
}

// The slot names the file, not its spelling: the lock directory's device and inode and the
// base name, so "locks/x.lock", "/srv/app/locks/x.lock" and a path through a symlinked
// directory queue together. A directory we cannot stat falls back to the path as given.
std::uint64_t slot_of(const std::string &lock_path) {
    auto slash = lock_path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : lock_path.substr(0, slash ? slash : 1);
    std::string base = slash == std::string::npos ? lock_path : lock_path.substr(slash + 1);
    dev_t dev;
    ino_t ino;
    if (!directory_identity(dir, &dev, &ino)) return fnv1a(lock_path) & kSlotMask;
    return fnv1a(std::to_string(dev) + ":" + std::to_string(ino) + "/" + base) & kSlotMask;
}

struct flock slot_range(std::uint64_t slot, short type) {
    struct flock range {};
    range.l_type = type;
    range.l_whence = SEEK_SET;
    range.l_start = static_cast<off_t>(slot);
    range.l_len = 1;
    return range;  // l_pid stays 0, as F_OFD_* require
}

struct flock presence_range(std::uint64_t slot, short type) {
    return slot_range(slot + 1, type);
}

// Takes (F_RDLCK) or gives up (F_UNLCK) this description's presence on the slot.
bool set_presence(int fd, std::uint64_t slot, short type) {
    struct flock presence = presence_range(slot, type);
    return ::fcntl(fd, F_OFD_SETLK, &presence) == 0;
}

// Gives up the place and the presence together: a place's description holds locks of its one
// slot only, so one unlock of the whole file frees both at once (no newcomer can see us present
// with the place free, and wait for us to take it).
bool give_up_place(int fd) {
    struct flock all {};
    all.l_type = F_UNLCK;
    all.l_whence = SEEK_SET;  // l_start 0, l_len 0: to the end of any file
    return ::fcntl(fd, F_OFD_SETLK, &all) == 0;
}

// Whether another open file description holds a lock that conflicts with `range` (F_OFD_GETLK
// ignores the asker's own locks).
bool taken_by_others(int fd, struct flock range) {
    return ::fcntl(fd, F_OFD_GETLK, &range) == 0 && range.l_type != F_UNLCK;
}

// The effective uid, once per LocalQueue::EuidScope: the key of the per-uid descriptor caches.
// Opening the queue file asks geteuid() itself (rare, and under ZTS another thread may change
// the process's uid within a scope).
thread_local int euid_scopes = 0;
thread_local uid_t scoped_euid = 0;

uid_t current_euid() {
    return euid_scopes > 0 ? scoped_euid : ::geteuid();
}

// One queue file per user: processes of other users can neither stall nor see our queue. It
// lives in memory (/dev/shm) where there is such a directory; its only data is the headship
// table.
// Named for the effective uid at each open: a process that changed its uid (posix_setuid())
// must not create the file of the uid it had. "queue2": builds before 2026-12-08 laid the
// bytes out otherwise (the presence byte at slot + 2^62); in a file of their own, processes
// of such a build on the same host (a rolling restart) neither wait behind this layout's
// presence bytes nor make its newcomers wait for their place: the two do not queue together.
std::string queue_file_path() {
    static const char *const dir = [] {
        struct stat st;
        return ::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
    }();
    return std::string(dir) + "/nativelock-queue2." + std::to_string(::geteuid());
}

// A new open file description of the queue file (each place in the queue needs its own), or
// -1. A file that is not a regular file of ours is not used: /dev/shm is world-writable.
int open_queue_file() {
    const std::string path = queue_file_path();
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Where the current headship of each slot began: LocalQueue::kHeadshipEntries words at the
// start of the queue file (the byte locks ignore its content), read and written with pread()
// and pwrite(). Not mapped: a mapping faults (SIGBUS) on a page that a full tmpfs cannot give
// or that someone truncated away, where pwrite() fails and pread() reads nothing. A word holds
// the slot's top 22 bits (so that another lock hashed to the same entry is not taken for ours)
// and the start in microseconds of CLOCK_MONOTONIC, 40 bits: 12.7 days, after which an old
// word could look fresh again for one window. A wrong or torn word changes who may try first,
// never who holds.
constexpr unsigned kHeadshipTimeBits = 40;
constexpr std::uint64_t kHeadshipTimeMask = (std::uint64_t{1} << kHeadshipTimeBits) - 1;

// Slots are even: halved first, so that every word of the table is used.
off_t headship_offset(std::uint64_t slot) {
    return static_cast<off_t>((slot >> 1) % LocalQueue::kHeadshipEntries * sizeof(std::uint64_t));
}

std::uint64_t headship_tag(std::uint64_t slot) {
    return slot >> kHeadshipTimeBits;
}

std::atomic<int> last_headship_write_error{0};

// The descriptor others_waiting() asks through: it never holds a lock, so every lock the
// kernel reports on a slot is another waiter's. Renewed after fork and after a change of
// uid (the queue file is per uid), per thread (ZTS).
class ProbeFd {
  public:
    int get() {
        const process::Tag tag = process::current_tag();
        const uid_t euid = current_euid();
        if (tag != tag_ || euid != euid_) {
            fd_.reset(open_queue_file());
            tag_ = tag;
            euid_ = euid;
        }
        return fd_.get();
    }

  private:
    UniqueFd fd_;
    process::Tag tag_;
    uid_t euid_ = 0;
};

// Descriptors of places given up, for the next join() of this thread: opening the queue file
// and an eventfd on every wait cost more than the rest of a hand-off's queue work. A spare
// place holds no lock (leave() unlocked it). Dropped after a fork, in both processes (neither
// may lock through an open file description the other shares), and after a change of uid (the
// file is per uid).
class SpareDescriptors {
  public:
    UniqueFd take_place() { return take(places_); }
    UniqueFd take_ready() { return take(readies_); }
    void give(UniqueFd place, UniqueFd ready) {
        renew();
        if (place && places_.size() < kKept) places_.push_back(place.release());
        if (ready && readies_.size() < kKept) readies_.push_back(ready.release());
    }
    ~SpareDescriptors() { drop(); }

  private:
    static constexpr std::size_t kKept = 2;

    UniqueFd take(std::vector<int> &spares) {
        renew();
        if (spares.empty()) return UniqueFd();
        UniqueFd fd(spares.back());
        spares.pop_back();
        return fd;
    }
    void renew() {
        const uid_t euid = current_euid();
        unsigned generation = fork_generation.load(std::memory_order_relaxed);
        if (generation != generation_ || euid != euid_) {
            drop();
            generation_ = generation;
            euid_ = euid;
        }
    }
    void drop() {
        for (int fd : places_) ::close(fd);
        for (int fd : readies_) ::close(fd);
        places_.clear();
        readies_.clear();
    }

    std::vector<int> places_, readies_;
    unsigned generation_ = 0;
    uid_t euid_ = 0;
};

// This thread's descriptor for looking at the queue without taking part in it.
int probe_fd() {
    static thread_local ProbeFd probe;
    return probe.get();
}

SpareDescriptors &spares() {
    static thread_local SpareDescriptors instance;
    return instance;
}

// Starts a waiting thread with every signal blocked: process-directed signals (PHP's timeouts,
// pcntl) must interrupt the main thread's poll(), not the thread's fcntl(). glibc keeps its
// cancellation signal deliverable regardless.
bool start_signal_free_thread(pthread_t *thread, void *(*run)(void *), void *arg) {
    pthread_attr_t attr;
    ::pthread_attr_init(&attr);
    ::pthread_attr_setstacksize(&attr, kThreadStackBytes);
    sigset_t all, previous;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &previous);
    const int rc = ::pthread_create(thread, &attr, run, arg);
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    ::pthread_attr_destroy(&attr);
    return rc == 0;
}

// The body of a waiting thread's work: blocks until `slot`'s place byte is taken through `fd`,
// stores 0 or the errno in `error`, then writes 1 to `ready_fd`. Nothing with a destructor in
// this frame (cancellation unwinds through it) and no AddressSanitizer redzones (a forced
// unwind skips the epilogue that would clear them, and the thread's exit then trips over them).
__attribute__((no_sanitize_address)) void take_place_byte(int fd, std::uint64_t slot,
                                                          std::atomic<int> *error, int ready_fd) {
    struct flock range = slot_range(slot, F_WRLCK);
    int rc;
    do {
        rc = ::fcntl(fd, F_OFD_SETLKW, &range);
    } while (rc != 0 && errno == EINTR);
    error->store(rc == 0 ? 0 : errno, std::memory_order_release);
    const std::uint64_t one = 1;
    ssize_t written = ::write(ready_fd, &one, sizeof one);
    (void)written;  // an eventfd write of 1 cannot fail short of a full counter
}

}  // namespace

// The thread that waits for places, kept from wait to wait: a thread started and joined per
// wait (clone, stack, signal masks, exit, join: a dozen system calls, each a microsecond on a
// virtual machine) made the CPU time of an acquisition at 8 contending processes about 650 µs
// instead of 500 µs on a 2-vCPU machine.
//
// One per PHP thread. A wait that finds it busy (a signal handler's lock() inside another's
// wait) or cannot have it starts a thread of its own, as every wait once did. A wait that ends
// before its place is taken cancels the thread (the only way to withdraw an F_OFD_SETLKW), and
// the next wait starts a new one. The thread exists only in the process that started it: after
// fork the child forgets it and closes its copy of the request eventfd (the same eventfd as the
// parent's).
class KeptWaiter {
  public:
    // Hands the thread a request: take `slot`'s place byte through `place_fd`, store the errno
    // (0: taken) for error(), then write 1 to `ready_fd`. False if the thread is busy or could
    // not be started: the caller starts one of its own.
    bool start(int place_fd, std::uint64_t slot, int ready_fd) {
        adopt();
        if (busy_) return false;
        if (running_ && exited_.load(std::memory_order_acquire)) {
            ::pthread_join(thread_, nullptr);
            running_ = false;
            request_fd_.reset();
        }
        if (!running_ && !launch()) return false;
        place_fd_.store(place_fd, std::memory_order_relaxed);
        slot_.store(slot, std::memory_order_relaxed);
        ready_fd_.store(ready_fd, std::memory_order_relaxed);
        error_.store(0, std::memory_order_relaxed);
        // The eventfd's write orders the stores above before the thread's read of the
        // request (a system call both ways; ThreadSanitizer models it as synchronisation).
        const std::uint64_t one = 1;
        if (::write(request_fd_.get(), &one, sizeof one) != sizeof one) return false;
        busy_ = true;
        return true;
    }
    // The request's errno; valid once its ready_fd was written.
    int error() const { return error_.load(std::memory_order_acquire); }
    // The request reported on its ready_fd: the thread is waiting for the next.
    void done() { busy_ = false; }
    // Withdraws a request that may not have reported: the thread is cancelled and joined.
    void cancel() {
        adopt();
        if (!busy_) return;
        ::pthread_cancel(thread_);
        ::pthread_join(thread_, nullptr);
        running_ = busy_ = false;
        // A request the thread had not read yet must not reach the next thread.
        request_fd_.reset();
    }
    // Whether the thread has reported on `ready_fd` (which holds a count then): a request
    // that ended otherwise need not cost the thread.
    static bool reported(int ready_fd) {
        struct pollfd ready = {ready_fd, POLLIN, 0};
        return ::poll(&ready, 1, 0) == 1 && (ready.revents & POLLIN);
    }
    ~KeptWaiter() {
        if (running_ && owner_ == process::current_tag()) {
            ::pthread_cancel(thread_);  // waiting in read() for a request, or in the fcntl()
            ::pthread_join(thread_, nullptr);
        }
        running_ = busy_ = false;
    }

  private:
    // In a forked child: the thread is the parent's (not here), and so is the eventfd.
    void adopt() {
        const process::Tag tag = process::current_tag();
        if (tag == owner_) return;
        owner_ = tag;
        running_ = busy_ = false;
        request_fd_.reset();
    }
    bool launch() {
        // Blocking: the thread sleeps in read() until a request comes.
        if (!request_fd_) request_fd_.reset(::eventfd(0, EFD_CLOEXEC));
        if (!request_fd_) return false;
        exited_.store(false, std::memory_order_relaxed);
        if (!start_signal_free_thread(&thread_, &KeptWaiter::serve, this)) return false;
        running_ = true;
        return true;
    }
    static void *serve(void *self);

    UniqueFd request_fd_;
    pthread_t thread_{};
    bool running_ = false;
    bool busy_ = false;  // a request handed over has not been done() or cancel()led
    process::Tag owner_;
    std::atomic<int> place_fd_{-1};
    std::atomic<std::uint64_t> slot_{0};
    std::atomic<int> ready_fd_{-1};
    std::atomic<int> error_{0};
    std::atomic<bool> exited_{false};  // the thread returned (its eventfd failed)
};

// Runs in the kept thread. Nothing with a destructor in this frame either (see
// take_place_byte).
__attribute__((no_sanitize_address)) void *KeptWaiter::serve(void *self) {
    auto *waiter = static_cast<KeptWaiter *>(self);
    const int request_fd = waiter->request_fd_.get();
    for (;;) {
        std::uint64_t count;
        if (::read(request_fd, &count, sizeof count) != sizeof count) {
            if (errno == EINTR) continue;
            // Not expected of an eventfd of ours; the next request starts a new thread.
            waiter->exited_.store(true, std::memory_order_release);
            return nullptr;
        }
        take_place_byte(waiter->place_fd_.load(std::memory_order_relaxed),
                        waiter->slot_.load(std::memory_order_relaxed), &waiter->error_,
                        waiter->ready_fd_.load(std::memory_order_relaxed));
    }
}

namespace {
KeptWaiter &kept_waiter() {
    static thread_local KeptWaiter instance;
    return instance;
}

}  // namespace

// Every queue that has a place, so a forked child can close its copies at once. Open file
// descriptions are shared across fork: a place released by the parent stays taken while any
// child still has the descriptor, and the queue would stall until that child exits (or until
// it waits, were it the child of a child waiting for the same lock: forever).
class PlaceRegistry {
  public:
    // Registers `queue` unless a fork happened since `generation` (then its descriptor, taken
    // before, may be shared with the child, which the atfork handler could not close: it was
    // not registered yet). Under the mutex the atfork handlers hold across fork, so a fork
    // after this is the handler's.
    static bool add_unless_forked(LocalQueue *queue, unsigned generation) {
        ensure_atfork();
        std::lock_guard<std::mutex> guard(mutex());
        if (fork_generation.load(std::memory_order_relaxed) != generation) return false;
        places().insert(queue);
        return true;
    }
    static void remove(LocalQueue *queue) {
        std::lock_guard<std::mutex> guard(mutex());
        places().erase(queue);
    }

    // The mutex is held across fork, so the child never finds it taken by a thread that does
    // not exist there. glibc unregisters these handlers if the extension is unloaded.
    static void ensure_atfork() {
        static std::once_flag registered;
        std::call_once(registered, [] {
            ::pthread_atfork([] { mutex().lock(); },
                             [] {
                                 fork_generation.fetch_add(1, std::memory_order_relaxed);
                                 mutex().unlock();
                             },
                             [] {
                                 fork_generation.fetch_add(1, std::memory_order_relaxed);
                                 for (LocalQueue *queue : places()) queue->drop_inherited();
                                 places().clear();
                                 mutex().unlock();
                             });
        });
    }

  private:
    static std::mutex &mutex() {
        static std::mutex instance;
        return instance;
    }
    static std::unordered_set<LocalQueue *> &places() {
        static std::unordered_set<LocalQueue *> instance;
        return instance;
    }
};

namespace {
// Runs in join() between taking a descriptor and registering the place. Tests only.
std::atomic<void (*)()> before_register_hook{nullptr};
}  // namespace

namespace test_hooks {
void set_before_register(void (*hook)()) {
    before_register_hook.store(hook);
}

void set_barging_window(std::chrono::microseconds window) {
    barging_window_us.store(window.count() < 0 ? 0 : window.count());
}

void set_passing_place_wait(std::chrono::milliseconds wait) {
    passing_place_wait.store(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(wait).count());
}
}  // namespace test_hooks

LocalQueue::EuidScope::EuidScope() {
    if (euid_scopes++ == 0) scoped_euid = ::geteuid();
}

LocalQueue::EuidScope::~EuidScope() {
    --euid_scopes;
}

LocalQueue::LocalQueue(const std::string &lock_path) : slot_(slot_of(lock_path)) {}

// The presence byte shows waiters while the place passes between them (the place byte is
// free then), and the place byte is the head's.
bool LocalQueue::others_waiting() const {
    int fd = probe_fd();
    if (fd < 0) return false;
    struct flock both = slot_range(slot_, F_WRLCK);
    both.l_len = 2;
    return taken_by_others(fd, both);
}

bool LocalQueue::head_is_fresh() const {
    const int fd = probe_fd();
    std::uint64_t seen = 0;
    if (fd < 0 || ::pread(fd, &seen, sizeof seen, headship_offset(slot_)) != sizeof seen)
        return false;
    if (seen >> kHeadshipTimeBits != headship_tag(slot_)) return false;
    const std::uint64_t age = (monotonic_us() - seen) & kHeadshipTimeMask;
    return age < static_cast<std::uint64_t>(barging_window_us.load(std::memory_order_relaxed));
}

void LocalQueue::publish_headship() const {
    const std::uint64_t word =
        headship_tag(slot_) << kHeadshipTimeBits | (monotonic_us() & kHeadshipTimeMask);
    // A failure (a full tmpfs) leaves the old word: newcomers then queue.
    const bool written =
        ::pwrite(place_fd_.get(), &word, sizeof word, headship_offset(slot_)) == sizeof word;
    last_headship_write_error.store(written ? 0 : (errno ? errno : EIO), std::memory_order_relaxed);
}

int headship_write_error() {
    return last_headship_write_error.load(std::memory_order_relaxed);
}

bool LocalQueue::joined() {
    if (joined_ && joined_tag_ != process::current_tag()) leave();
    return joined_;
}

bool LocalQueue::join(const Deadline &deadline) {
    leave();
    // Threaded PHP: another thread may fork while we take our place; the place is then given
    // up and taken again through a descriptor of our own (rarely more than once).
    PlaceRegistry::ensure_atfork();  // before the generation is read: forks must count from here
    for (int attempt = 0; attempt < 4; ++attempt) {
        const unsigned generation = fork_generation.load(std::memory_order_relaxed);
        Joined joined = join_once(deadline, generation);
        if (joined != Joined::Forked) return joined == Joined::Yes;
        abandon_shared_place();
    }
    return false;
}

// Gives up a place taken through a descriptor a forked child may share: unlocked (the locks
// belong to the open file description, whoever else has it), closed, never kept as a spare.
void LocalQueue::abandon_shared_place() {
    stop_thread();
    (void)give_up_place(place_fd_.get());
    place_fd_.reset();
    ready_fd_.reset();
    joined_ = head_ = false;
}

LocalQueue::Joined LocalQueue::join_once(const Deadline &deadline, unsigned generation) {
    UniqueFd place = spares().take_place();
    if (!place) place.reset(open_queue_file());
    if (!place) return Joined::No;
    place_euid_ = current_euid();
    if (auto hook = before_register_hook.load()) hook();
    joined_tag_ = process::current_tag();
    wait_for_passing_place(place.get(), deadline);
    // Present from here to leave(). (Not while waiting above: two newcomers would each wait
    // for the other.)
    (void)set_presence(place.get(), slot_, F_RDLCK);  // read locks never conflict
    // A failure below closes the descriptor, but only after saying so: a forked child may
    // share it (until it exits), and so the lock on it.
    auto give_up = [&] {
        (void)set_presence(place.get(), slot_, F_UNLCK);
        return Joined::No;
    };
    thread_error_.store(0);
    struct flock range = slot_range(slot_, F_WRLCK);
    if (::fcntl(place.get(), F_OFD_SETLK, &range) == 0) {
        // Nobody queued: head at once, no thread needed.
        place_fd_ = std::move(place);
        joined_ = head_ = true;
        publish_headship();
        return PlaceRegistry::add_unless_forked(this, generation) ? Joined::Yes : Joined::Forked;
    }
    if (errno != EAGAIN && errno != EACCES) return give_up();
    UniqueFd ready = spares().take_ready();
    if (!ready) ready.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!ready) return give_up();
    place_fd_ = std::move(place);
    ready_fd_ = std::move(ready);
    KeptWaiter &kept = kept_waiter();
    if (kept.start(place_fd_.get(), slot_, ready_fd_.get())) {
        waiting_by_ = WaitingBy::KeptThread;
        kept_ = &kept;
    } else if (start_signal_free_thread(&thread_, &LocalQueue::take_place, this)) {
        waiting_by_ = WaitingBy::OwnThread;
    } else {
        place = std::move(place_fd_);
        ready_fd_.reset();
        return give_up();
    }
    joined_ = true;
    head_ = false;
    return PlaceRegistry::add_unless_forked(this, generation) ? Joined::Yes : Joined::Forked;
}

// When a head leaves, the kernel wakes the next waiter, which takes the place byte only once it
// runs; a request made before that (a newcomer's) would get the free byte first and go ahead of
// every waiter. So while others are present and the place byte is free, a newcomer waits for
// the woken waiter to take it. Bounded: a waiter that never runs (stopped) must not hold up the
// queue for good.
void LocalQueue::wait_for_passing_place(int fd, const Deadline &deadline) const {
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::steady_clock::duration(passing_place_wait.load());
    while (taken_by_others(fd, presence_range(slot_, F_WRLCK)) &&
           !taken_by_others(fd, slot_range(slot_, F_WRLCK))) {
        if (std::chrono::steady_clock::now() >= until || deadline.expired()) return;
        ::usleep(kPassingPlaceLookUs);
    }
}

// Runs in a wait's own thread (see take_place_byte).
__attribute__((no_sanitize_address)) void *LocalQueue::take_place(void *self) {
    auto *queue = static_cast<LocalQueue *>(self);
    take_place_byte(queue->place_fd_.get(), queue->slot_, &queue->thread_error_,
                    queue->ready_fd_.get());
    return nullptr;
}

bool LocalQueue::place_reported() const {
    return waiting_by_ != WaitingBy::Nobody && ready_fd_ && KeptWaiter::reported(ready_fd_.get());
}

bool LocalQueue::wait_for_turn(const Deadline &deadline, int slice_ms) {
    if (head_ || !joined_) return head_;
    struct pollfd ready = {ready_fd_.get(), POLLIN, 0};
    int timeout = deadline.remaining_ms(slice_ms);
    if (::poll(&ready, 1, timeout) <= 0) return false;  // slice over, deadline, or a signal
    std::uint64_t count;
    if (::read(ready_fd_.get(), &count, sizeof count) != sizeof count) return false;
    // The thread has done its work: the kept one waits for the next request, our own is
    // returning (joined, not cancelled).
    if (waiting_by_ == WaitingBy::KeptThread) {
        thread_error_.store(kept_->error());
        kept_->done();
    } else {
        ::pthread_join(thread_, nullptr);
    }
    waiting_by_ = WaitingBy::Nobody;
    spares().give(UniqueFd(), std::move(ready_fd_));
    // A queue that failed under us (ENOLCK, say) no longer orders anything: go on as the head,
    // which waits the way an unqueued waiter does, without the place, and no longer present
    // (newcomers would wait for us to take it).
    if (thread_error_.load() != 0) (void)set_presence(place_fd_.get(), slot_, F_UNLCK);
    head_ = true;
    return true;
}

void LocalQueue::stop_thread() {
    if (waiting_by_ == WaitingBy::KeptThread) {
        // One that has taken the place (leave() gives it up) waits for the next request.
        if (KeptWaiter::reported(ready_fd_.get()))
            kept_->done();
        else
            kept_->cancel();
    } else if (waiting_by_ == WaitingBy::OwnThread) {
        ::pthread_cancel(thread_);  // harmless if it already ran to its end
        ::pthread_join(thread_, nullptr);
    }
    waiting_by_ = WaitingBy::Nobody;
}

void LocalQueue::leave() {
    if (!joined_) return;
    if (joined_tag_ != process::current_tag()) {
        drop_inherited();  // not registered in this process: a copy the atfork handler missed
        return;
    }
    PlaceRegistry::remove(this);
    // Cancelling the thread withdraws its pending request; unlocking then frees our byte, and
    // the kernel hands it to the next waiter. A descriptor that could not be unlocked is
    // closed, which frees the byte too.
    stop_thread();
    // A head that holds its place passes the headship on: the next one's begins now, even
    // though that process takes the byte only once it runs (the first window covers its
    // wake-up). A head that lost its place to a failed queue has no headship to pass.
    if (head_ && thread_error_.load() == 0) publish_headship();
    if (!give_up_place(place_fd_.get())) place_fd_.reset();
    if (ready_fd_) {
        // A count the thread left (it got the byte after our last look) must not wake the
        // next user of this eventfd.
        std::uint64_t count;
        while (::read(ready_fd_.get(), &count, sizeof count) == sizeof count) {
        }
    }
    // A place opened as another uid (changed by a signal handler while an interrupted wait
    // kept it) is not a spare of this one's queue file.
    if (place_euid_ != current_euid()) place_fd_.reset();
    spares().give(std::move(place_fd_), std::move(ready_fd_));
    joined_ = head_ = false;
}

void LocalQueue::drop_inherited() {
    // The thread is the parent's and does not exist here (the kept thread's object forgets it
    // at its next use); the byte lock belongs to the open file description, which the parent
    // keeps after we close our copy.
    waiting_by_ = WaitingBy::Nobody;
    place_fd_.reset();
    ready_fd_.reset();
    joined_ = head_ = false;
}

}  // namespace nativelock::file
