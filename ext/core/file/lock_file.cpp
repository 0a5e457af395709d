#include "file/lock_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/process.hpp"
#include "common/random.hpp"
#include "file/fence.hpp"
#include "file/name.hpp"
#include "file/release_waiter.hpp"
#include "file/staleness.hpp"

namespace nativelock::file {
namespace {

// Owner records are small; anything larger is not one of ours and is judged unreadable.
constexpr std::size_t kMaxRecordSize = 64 * 1024;
// Temp-file names collide only if a random number repeats for our pid; retry a few times.
constexpr int kTempNameAttempts = 8;
// The owner record decides who may be broken as dead: only its owner may write it, whatever the
// umask (which can only narrow this). Others may read it (is_locked(), the original class).
constexpr mode_t kRecordMode = 0644;
// Rounds of link → holder gone or broken → link again, before reporting "already locked".
constexpr int kLinkRounds = 4;
// How long a waiter behind the queue's head waits for its turn before one attempt of its own
// (see acquire()).
constexpr int kBehindHeadSliceMs = 500;
constexpr int kBehindHeadForcedTryEvery = 4;
constexpr int kBehindHeadFreeForMs = 100;

bool lock_file_present(const std::string &path) {
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0;
}

std::string directory_of(const std::string &path) {
    auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

bool is_shared_filesystem(long type) {
    switch (static_cast<unsigned long>(type)) {
        case 0x6969:      // NFS
        case 0x517B:      // SMB
        case 0xFF534D42:  // CIFS
        case 0xFE534D42:  // SMB2
        case 0x01021997:  // 9P / v9fs
        case 0x00C36400:  // Ceph
        case 0x5346414F:  // AFS
        case 0x6B414653:  // kAFS
        case 0x0BD00BD0:  // Lustre
        case 0x01161970:  // GFS2
        case 0x7461636F:  // OCFS2
        case 0x47504653:  // GPFS
        case 0x65735546:  // FUSE (sshfs, glusterfs, s3fs …: may be shared)
            return true;
        default:
            return false;
    }
}

// statx()'s unique mount id (Linux 6.8): never reused while the system runs, unlike the older
// STATX_MNT_ID and device numbers, which a later mount of another filesystem can take over.
#ifdef STATX_TYPE  // glibc 2.28+ has statx()
#define NL_HAVE_STATX 1
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U
#endif

// stx_mnt_id, read by its place in the kernel's ABI, right after stx_dev_minor: glibc's own
// struct statx (used with kernel headers older than 4.11) has only padding there.
std::uint64_t mount_id_of(const struct statx &sx) {
    constexpr std::size_t kAt = offsetof(struct statx, stx_dev_minor) + sizeof sx.stx_dev_minor;
    static_assert(kAt == 144 && sizeof(struct statx) >= kAt + sizeof(std::uint64_t),
                  "struct statx is not the kernel's layout");
    std::uint64_t id;
    std::memcpy(&id, reinterpret_cast<const char *>(&sx) + kAt, sizeof id);
    return id;
}
#endif

// Whether each mount this thread made a lock's file on is local, by unique mount id: a mount's
// filesystem never changes, so one fstatfs() per mount replaces a statfs() per Filelock object
// (often one per lock call). Per thread: no lock to inherit held across fork().
class MountKinds {
  public:
    const bool *find(std::uint64_t mount) const {
        for (const auto &entry : entries_)
            if (entry.first == mount) return &entry.second;
        return nullptr;
    }
    void remember(std::uint64_t mount, bool local) {
        if (entries_.size() >= kMaxMounts) entries_.erase(entries_.begin());
        entries_.emplace_back(mount, local);
    }

  private:
    static constexpr std::size_t kMaxMounts = 32;
    std::vector<std::pair<std::uint64_t, bool>> entries_;
};

MountKinds &mount_kinds() {
    static thread_local MountKinds kinds;
    return kinds;
}

ssize_t write_all(int fd, const std::string &data) {
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        done += static_cast<std::size_t>(n);
    }
    return static_cast<ssize_t>(done);
}

// The temp file's name lives only for the duration of one attempt; its descriptor is taken
// over by the lock on success.
class TempFile {
  public:
    TempFile(std::string path, UniqueFd fd) : path_(std::move(path)), fd_(std::move(fd)) {}
    // Closed before it is unlinked: NFS and FUSE clients silly-rename a name that is still open.
    ~TempFile() {
        fd_.reset();
        ::unlink(path_.c_str());
    }
    const std::string &path() const { return path_; }
    int fd() const { return fd_.get(); }
    UniqueFd &descriptor() { return fd_; }

  private:
    std::string path_;
    UniqueFd fd_;
};

// Reads the holder's record and file facts from an open lock file.
HolderFacts read_holder(int fd, const struct stat &st, bool local_fs) {
    HolderFacts facts;
    facts.file_mtime = st.st_mtim.tv_sec;
    facts.local_filesystem = local_fs;
    if (st.st_size <= 0 || static_cast<std::size_t>(st.st_size) > kMaxRecordSize) return facts;
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        ssize_t n = ::pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    facts.record = decode(text);
    return facts;
}

}  // namespace

LockFile::LockFile(std::string path) : path_(std::move(path)) {}

bool LockFile::on_local_filesystem() const {
    if (local_fs_ < 0) {
        struct statfs fs;
        local_fs_ =
            (::statfs(directory_of(path_).c_str(), &fs) == 0 && !is_shared_filesystem(fs.f_type))
                ? 1
                : 0;
    }
    return local_fs_ == 1;
}

bool LockFile::examine(int fd, struct stat *st) const {
#ifdef NL_HAVE_STATX
    // The basic set, as fstat() asks (on NFS that also writes a new record back before link()).
    constexpr unsigned kNeeded =
        STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_INO | STATX_SIZE | STATX_MTIME;
    struct statx sx;
    if (::statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_MNT_ID_UNIQUE, &sx) == 0) {
        // Whatever else the filesystem reports (NFS leaves out attributes it has not
        // revalidated), the mount says the kind.
        if (sx.stx_mask & STATX_MNT_ID_UNIQUE) settle_kind(fd, mount_id_of(sx));
        // Values a 32-bit time_t or off_t cannot hold go to fstat(), which fails with EOVERFLOW
        // as before, rather than wrap (a wrapped mtime would look older than the boot).
        const bool fits =
            static_cast<std::int64_t>(static_cast<time_t>(sx.stx_mtime.tv_sec)) ==
                sx.stx_mtime.tv_sec &&
            static_cast<off_t>(sx.stx_size) >= 0 &&
            static_cast<std::uint64_t>(static_cast<off_t>(sx.stx_size)) == sx.stx_size;
        if ((sx.stx_mask & kNeeded) == kNeeded && fits) {
            *st = {};
            st->st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
            st->st_ino = sx.stx_ino;
            st->st_mode = sx.stx_mode;
            st->st_nlink = sx.stx_nlink;
            st->st_uid = sx.stx_uid;
            st->st_gid = sx.stx_gid;
            st->st_size = static_cast<off_t>(sx.stx_size);
            st->st_mtim.tv_sec = static_cast<time_t>(sx.stx_mtime.tv_sec);
            st->st_mtim.tv_nsec = sx.stx_mtime.tv_nsec;
            return true;
        }
    }
#endif
    // No statx(), or not all it asked for: fstat(). Without a unique mount id (an older kernel,
    // a seccomp filter that refuses statx()) the kind stays for on_local_filesystem() to ask.
    return ::fstat(fd, st) == 0;
}

bool LockFile::identify(int fd, dev_t *dev, ino_t *ino) const {
    struct stat st;
    if (!examine(fd, &st)) return false;
    *dev = st.st_dev;
    *ino = st.st_ino;
    return true;
}

void LockFile::settle_kind(int fd, std::uint64_t mount) const {
    if (mount == kind_mount_) return;
    const bool *known = mount_kinds().find(mount);
    bool local;
    if (known) {
        local = *known;
    } else {
        struct statfs fs;
        if (::fstatfs(fd, &fs) != 0) {
            // Undecided: statfs() of the directory decides, not what an older mount said.
            local_fs_ = -1;
            kind_mount_ = 0;
            return;
        }
        local = !is_shared_filesystem(fs.f_type);
        mount_kinds().remember(mount, local);
    }
    local_fs_ = local ? 1 : 0;
    kind_mount_ = mount;
}

bool LockFile::held_by_us() const {
    return held_ && owner_tag_ == process::current_tag();
}

bool LockFile::held_and_linked() const {
    if (!held_by_us()) return false;
    struct stat st;
    if (::lstat(path_.c_str(), &st) == 0) return st.st_dev == dev_ && st.st_ino == ino_;
    // Gone. Any other failure (EACCES, EIO on a soft NFS mount) says nothing about the file,
    // which may well be ours still: "not held" would make callers abandon it.
    if (errno == ENOENT || errno == ENOTDIR) return false;
    throw SystemError("cannot check lock file " + path_, errno);
}

// Whether /proc/thread-self/fd is there to link unnamed files through: asked once per process
// (a Filelock object is often made per lock call). Should /proc go away later, the link fails
// and the attempt falls back to a named temp file (attempt()).
static bool proc_fd_links_usable() {
    static std::atomic<int> usable{-1};
    int known = usable.load(std::memory_order_relaxed);
    if (known < 0) {
        known = ::access("/proc/thread-self/fd", X_OK) == 0 ? 1 : 0;
        usable.store(known, std::memory_order_relaxed);
    }
    return known == 1;
}

// Whether linkat(fd, "", ..., AT_EMPTY_PATH) links here: Linux 6.10+ allows it for a descriptor
// opened under the caller's own credentials, older kernels only with CAP_DAC_READ_SEARCH, and
// both refuse with ENOENT. Not tried yet, linked, or refused for good in this process.
enum DescriptorLinks : int {
    kDescriptorUntried = -1,
    kDescriptorRefused = 0,
    kDescriptorLinked = 1
};
static std::atomic<int> descriptor_links{kDescriptorUntried};

static bool descriptor_links_usable() {
    return descriptor_links.load(std::memory_order_relaxed) != kDescriptorRefused;
}

// An unnamed file in the lock's directory (O_TMPFILE), or none where the filesystem or kernel
// has no such thing, or where it cannot be linked (an older kernel that refuses AT_EMPTY_PATH
// to the unprivileged, with /proc not mounted).
LockFile::RecordFile LockFile::open_unnamed() {
    if (unnamed_ == 0) return {};
    if (unnamed_ < 0 &&
        (local_fs_ == 0 || !(descriptor_links_usable() || proc_fd_links_usable()))) {
        unnamed_ = 0;
        return {};
    }
    RecordFile file;
    file.fd.reset(
        ::open(directory_of(path_).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, kRecordMode));
    if (!file.fd) {
        // EOPNOTSUPP/EISDIR/EINVAL: no O_TMPFILE here. Other errors (a missing directory,
        // EACCES) are the named path's to report, so it runs instead.
        if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) unnamed_ = 0;
        return {};
    }
    if (!identify(file.fd.get(), &file.dev, &file.ino)) return {};
    // The kind as read from this file's mount (identify()), or else by statfs(): a shared
    // filesystem that has O_TMPFILE (FUSE, or one mounted over the directory since) still takes
    // the named temp file, whose link count is what makes the protocol safe there (a lost reply
    // to link() is told apart by the count).
    if (!on_local_filesystem()) {
        unnamed_ = 0;
        return {};
    }
    unnamed_ = 1;
    return file;
}

// Gives the unnamed file `fd` the lock's name, failing with EEXIST while the lock is held, as
// link() does. By the descriptor itself where the kernel allows it: a path through /proc costs
// a procfs lookup on every link (about 4 us, an eighth of the cycle) and needs /proc mounted.
int LockFile::link_unnamed(int fd) const {
    const bool by_descriptor = descriptor_links_usable();
    int descriptor_errno = ENOENT;
    if (by_descriptor) {
        if (::linkat(fd, "", AT_FDCWD, path_.c_str(), AT_EMPTY_PATH) == 0) {
            if (descriptor_links.load(std::memory_order_relaxed) != kDescriptorLinked)
                descriptor_links.store(kDescriptorLinked, std::memory_order_relaxed);
            return 0;
        }
        if (errno == EEXIST) return -1;
        // The directory's own failure (full, read-only, gone), or a refusal: ENOENT by the
        // kernel's rule, EPERM/EACCES by a security module. /proc tells which.
        descriptor_errno = errno;
    }
    int linked = -1;
    int link_errno = descriptor_errno;
    if (proc_fd_links_usable()) {
        // thread-self rather than self: a ZTS process whose main thread has ended has no
        // /proc/self/fd. Formatted by hand: snprintf() was a tenth of a cycle's user-space time.
        static constexpr char kPrefix[] = "/proc/thread-self/fd/";
        char proc_path[sizeof kPrefix + 12];
        std::memcpy(proc_path, kPrefix, sizeof kPrefix - 1);
        char *end =
            std::to_chars(proc_path + sizeof kPrefix - 1, proc_path + sizeof proc_path - 1, fd).ptr;
        *end = '\0';
        linked = ::linkat(AT_FDCWD, proc_path, AT_FDCWD, path_.c_str(), AT_SYMLINK_FOLLOW);
        link_errno = linked == 0 ? 0 : errno;
    }
    const bool refusal =
        descriptor_errno == ENOENT || descriptor_errno == EPERM || descriptor_errno == EACCES;
    if (by_descriptor && refusal) {
        // Refused for good: /proc found the file (linked it, or the lock is held), or neither
        // could link it while the directory is there (ENOENT then is the kernel's rule).
        struct stat st;
        if (linked == 0 || link_errno == EEXIST ||
            (descriptor_errno == ENOENT && link_errno == ENOENT &&
             ::stat(directory_of(path_).c_str(), &st) == 0))
            descriptor_links.store(kDescriptorRefused, std::memory_order_relaxed);
    }
    errno = link_errno;
    return linked;
}

LockFile::DescriptorLinking LockFile::descriptor_linking() {
    switch (descriptor_links.load(std::memory_order_relaxed)) {
        case kDescriptorLinked:
            return DescriptorLinking::Linked;
        case kDescriptorRefused:
            return DescriptorLinking::Refused;
        default:
            return DescriptorLinking::Untried;
    }
}

Status LockFile::try_acquire(const std::string &record, Contention *contention) {
    return attempt(record, contention, nullptr);
}

// An unnamed file holding `record`, made ready while the lock is still held, so that the
// release is followed by a single linkat() (empty where unnamed files are not used).
LockFile::RecordFile LockFile::prepare_unnamed(const std::string &record) {
    // Read before the file is made: its mtime is then this second or a later one, never an
    // earlier one, and a link within this second may leave it as it is (attempt()).
    const time_t now = ::time(nullptr);
    RecordFile file = open_unnamed();
    if (file.fd && write_all(file.fd.get(), record) < 0) return {};
    file.written_at = now;
    return file;
}

Status LockFile::attempt(const std::string &record, Contention *contention, RecordFile *prepared,
                         bool judge_holder) {
    Contention scratch;
    if (!contention) contention = &scratch;

    // On a local filesystem the record goes into an unnamed file that takes the lock's name in
    // one step: no temp name to create and remove on every attempt (directory work that is most
    // of a cycle's cost), and nothing a crash can leave behind.
    // A file prepared by a waiting head (or kept from its last attempt) is used as it is.
    RecordFile own;
    // A file prepared on a mount that is no longer the directory's (a shared filesystem mounted
    // over it since) cannot take the name: linkat() fails with EXDEV and the named path runs.
    RecordFile &unnamed = prepared ? *prepared : own;
    if (unnamed.fd) {
        // Written while the holder worked (or at an earlier attempt): the lock file's mtime says
        // when it was taken, for whoever judges a lock's age by it. Written this same second,
        // it says so already to the second, all that judges read (and the usual hand-off of a
        // hot lock is spared the futimens()).
        const time_t now = ::time(nullptr);
        if (now != unnamed.written_at && ::futimens(unnamed.fd.get(), nullptr) == 0)
            unnamed.written_at = now;
    } else {
        // Empty also when the record cannot be written: the named path then reports why.
        unnamed = prepare_unnamed(record);
    }
    bool unnamed_link_failed = false;
    if (unnamed.fd) {
        Status status = Status::AlreadyLocked;
        attempt_link(nullptr, unnamed.fd, unnamed.dev, unnamed.ino, contention, &status,
                     judge_holder);
        if (status != Status::FailedToObtain) return status;
        // The link failed, by the descriptor and through /proc (a kernel that refuses the one
        // with /proc unmounted or restricted, or the directory failing: full, read-only, gone).
        // The named temp file needs neither and reports the directory's own errors; only if it
        // works is the unnamed file given up for good.
        unnamed_link_failed = true;
        unnamed = RecordFile{};
        *contention = Contention{};
    }
    const Status status = attempt_named(record, contention, judge_holder);
    if (unnamed_link_failed && status != Status::FailedToObtain) unnamed_ = 0;
    return status;
}

Status LockFile::attempt_named(const std::string &record, Contention *contention,
                               bool judge_holder) {
    pid_t pid = process::current_pid();

    UniqueFd fd;
    std::string temp_path;
    for (int i = 0; i < kTempNameAttempts && !fd; ++i) {
        temp_path = temp_file_path(path_, pid, random::mt_rand_like());
        fd.reset(::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        kRecordMode));
        // EEXIST also covers a symlink planted at that name: O_EXCL never follows it.
        if (!fd && errno != EEXIST) break;
    }
    if (!fd) {
        contention->error = errno;
        return Status::FailedToObtain;
    }
    TempFile temp(std::move(temp_path), std::move(fd));
    dev_t dev = 0;
    ino_t ino = 0;
    if (write_all(temp.fd(), record) < 0 || !identify(temp.fd(), &dev, &ino)) {
        contention->error = errno;
        return Status::FailedToObtain;
    }
    Status status = Status::AlreadyLocked;
    attempt_link(&temp.path(), temp.descriptor(), dev, ino, contention, &status, judge_holder);
    return status;
}

bool LockFile::attempt_link(const std::string *temp_path, UniqueFd &temp_fd, dev_t temp_dev,
                            ino_t temp_ino, Contention *contention, Status *status,
                            bool judge_holder) {
    for (int round = 0; round < kLinkRounds; ++round) {
        bool linked = (temp_path ? ::link(temp_path->c_str(), path_.c_str())
                                 : link_unnamed(temp_fd.get())) == 0;
        int link_errno = errno;
        if (!linked && temp_path) {
            // NFS: the reply to a successful link() can be lost and the retry fail with
            // EEXIST; the link count of our own file tells the truth.
            struct stat now;
            linked = ::fstat(temp_fd.get(), &now) == 0 && now.st_nlink >= 2;
        }
        if (linked) {
            held_ = true;
            owner_tag_ = process::current_tag();
            dev_ = temp_dev;
            ino_ = temp_ino;
            held_fd_ = keep_inode_open(temp_fd);
            *status = Status::Acquired;
            return true;
        }
        if (link_errno != EEXIST) {
            contention->error = link_errno;
            *status = Status::FailedToObtain;
            return false;
        }
        if (!judge_holder || !break_if_dead(contention)) break;
    }
    *status = Status::AlreadyLocked;
    return false;
}

// The descriptor that keeps our lock file's inode allocated while held. NFS and FUSE clients
// cannot delete a name that is open on them: they rename it (.nfsXXXX, .fuse_hidden…) until it
// is closed, and a client that crashes leaves that file behind for good. So on a shared
// filesystem the inode is held open through the lock file's own name (checked to be ours), and
// the temp name, no longer open, is really removed.
UniqueFd LockFile::keep_inode_open(UniqueFd &temp_fd) const {
    if (on_local_filesystem()) return std::move(temp_fd);
    UniqueFd by_lock_name(::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st;
    if (!by_lock_name || ::fstat(by_lock_name.get(), &st) != 0 || st.st_dev != dev_ ||
        st.st_ino != ino_)
        return std::move(temp_fd);
    temp_fd.reset();
    return by_lock_name;
}

bool LockFile::break_if_dead(Contention *contention) {
    // O_NONBLOCK: a FIFO planted at the lock path must not hang us; O_NOFOLLOW: nor may a
    // symlink lead us anywhere.
    UniqueFd fd(::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd) return errno == ENOENT;  // released meanwhile: link again
    // The kind comes from the lock file itself: judged by the mount it is on now.
    struct stat st;
    if (!examine(fd.get(), &st) || !S_ISREG(st.st_mode)) return false;

    const auto &self = process::self();
    HolderFacts facts = read_holder(fd.get(), st, on_local_filesystem());
    if (judge(facts, self, system_probe()) != Verdict::Dead) {
        contention->local_owner = local_owner_pid(facts, self);
        return false;
    }
    // Breakers of this inode serialize on its flock; whoever gets it first and still finds the
    // same inode at the path removes it. The dead owner cannot unlink it, and a later owner's
    // file is a different inode (ours is kept allocated by our open descriptor). Not waited
    // for: a breaker stopped between its flock and its unlink (SIGSTOP, a frozen cgroup), or
    // any other flock on the file, would hold every try_lock() and deadline on the host. Busy
    // means another process is breaking it: taken, for now, and a waiter hears the removal.
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) return false;  // also ENOLCK: never unsafely
    struct stat at_path;
    if (::lstat(path_.c_str(), &at_path) != 0) return errno == ENOENT;
    if (at_path.st_dev != st.st_dev || at_path.st_ino != st.st_ino) return true;
    return ::unlink(path_.c_str()) == 0 || errno == ENOENT;
}

WaitResult LockFile::acquire(const std::string &record, const Deadline &deadline,
                             const std::function<bool()> &interrupted, Contention *contention) {
    Contention scratch;
    if (!contention) contention = &scratch;
    if (!queue_) queue_ = std::make_unique<LocalQueue>(path_);
    LocalQueue &queue = *queue_;
    const LocalQueue::EuidScope one_euid;  // before leave_unless_kept: outlives its leave()
    // The place is given up whenever the wait ends for good; an interrupted wait keeps it.
    bool keep_place = false;
    struct LeaveUnlessKept {
        LocalQueue &queue;
        const bool &keep;
        ~LeaveUnlessKept() {
            if (!keep) queue.leave();
        }
    } leave_unless_kept{queue, keep_place};
    auto stop_for_interrupt = [&]() -> bool {
        if (!interrupted || !interrupted()) return false;
        keep_place = true;
        return true;
    };

    if (!queue.joined()) {
        // A newcomer tries at once when nobody of this host is queued, or when the queue's
        // head became the head within the barging window and the lock is free: a hand-off
        // that waits for the head's wake-up would leave the lock idle meanwhile. Past the
        // window the head is starving, and taking the lock ahead of it is what starved
        // waiters (see LocalQueue).
        if (!queue.others_waiting() || (queue.head_is_fresh() && !lock_file_present(path_))) {
            *contention = Contention{};
            Status status = try_acquire(record, contention);
            if (status != Status::AlreadyLocked || deadline.expired()) return {status};
        }
        if (!queue.join(deadline)) return wait_as_head(record, deadline, interrupted, contention);
    }
    int slices_waited = -1;  // stays -1 for a process that was the head at once
    // Past the deadline only the last attempt below is left: an interrupt that is due at every
    // resumption (signals faster than their handlers return) must not keep the wait from ending.
    auto stop_before_deadline = [&] { return !deadline.expired() && stop_for_interrupt(); };
    while (!queue.is_head()) {
        if (slices_waited < 0) slices_waited = 0;
        if (stop_before_deadline()) return {Status::AlreadyLocked, true};
        if (queue.wait_for_turn(deadline, kBehindHeadSliceMs)) break;
        if (stop_before_deadline()) return {Status::AlreadyLocked, true};
        // A slice without progress: the head may be stuck (stopped, or a process that keeps a
        // place it does not use). An attempt of our own bounds what that costs us, but only
        // when the lock stays free for a while (a head that works takes a free lock at once,
        // even on a loaded machine; trying in that gap would take it ahead of the head), or,
        // every few slices, when it is held (a stuck head would not break a dead holder).
        if (!deadline.expired()) {
            if (lock_file_present(path_)) {
                if (++slices_waited % kBehindHeadForcedTryEvery != 0) continue;
            } else {
                ::usleep(static_cast<useconds_t>(deadline.remaining_ms(kBehindHeadFreeForMs)) *
                         1000);
                if (lock_file_present(path_)) continue;
            }
        }
        *contention = Contention{};
        Status status = try_acquire(record, contention);
        if (status != Status::AlreadyLocked || deadline.expired()) return {status};
    }
    WaitResult result = wait_as_head(record, deadline, interrupted, contention, slices_waited >= 0);
    keep_place = result.interrupted;
    return result;
}

WaitResult LockFile::wait_as_head(const std::string &record, const Deadline &deadline,
                                  const std::function<bool()> &interrupted, Contention *contention,
                                  bool promoted) {
    // The record's unnamed file, written while the holder works: the hand-off then costs one
    // linkat(). Kept across failed attempts; it vanishes with its descriptor (no leftovers).
    // Made before the watch: its statx() tells the waiter the filesystem's kind by the mount
    // (a new Filelock object would otherwise statfs() the directory for it).
    RecordFile prepared = prepare_unnamed(record);
    ReleaseWaiter waiter(path_, on_local_filesystem());
    // Whether a failed link reads and judges the holder (and watches its pidfd). Not right
    // after a release, nor when the path was just seen free: the file that refused our link was
    // linked since, by a process alive then (a newcomer in the barging window: about one
    // hand-off in three under contention), and judging it cost eleven system calls on the
    // holder's time. A wake that is not a release (the end of a poll interval, the death of a
    // watched owner) judges, and so does any attempt a first poll interval (50 ms locally) after
    // the last judgement: events for the name that keep coming (a watch left on a directory
    // that a renamed parent or a switched symlink took away from the path) must not keep a
    // holder that died unjudged.
    bool judge_holder = true;
    const auto judged_within = std::chrono::milliseconds(waiter.first_poll_ms());
    auto last_judged = std::chrono::steady_clock::now();
    auto judge_now = [&](ReleaseWaiter::Wake wake) {
        return wake != ReleaseWaiter::Wake::Released ||
               std::chrono::steady_clock::now() - last_judged >= judged_within;
    };
    for (bool first = true;; first = false) {
        // Promoted to the head while the lock is held (the usual case: the head before us
        // just took it), the first attempt would only fail, at the cost of a whole attempt on
        // the holder's time. With the watch in place, a present lock file is enough to wait.
        if (first && promoted && !deadline.expired()) {
            if (lock_file_present(path_)) {
                if (interrupted && interrupted()) return {Status::AlreadyLocked, true};
                judge_holder = judge_now(waiter.wait(deadline));
                if (interrupted && interrupted()) return {Status::AlreadyLocked, true};
                continue;
            }
            judge_holder = false;  // seen free just now: a file there at our link is a newer one
        }
        *contention = Contention{};
        Status status = attempt(record, contention, &prepared, judge_holder);
        // The last attempt of a wait judges: a dead holder is broken rather than timed out on.
        const bool last = deadline.expired();
        if (status == Status::AlreadyLocked && !judge_holder && last) {
            judge_holder = true;
            status = attempt(record, contention, &prepared, true);
        }
        if (judge_holder) last_judged = std::chrono::steady_clock::now();
        if (status != Status::AlreadyLocked || last) return {status};
        if (contention->local_owner && *contention->local_owner != process::current_pid()) {
            waiter.watch_owner(*contention->local_owner);
        }
        // Asked before and after sleeping: a signal that landed just before poll() would
        // otherwise wait out a whole poll interval.
        if (interrupted && interrupted()) return {Status::AlreadyLocked, true};
        judge_holder = judge_now(waiter.wait(deadline));
        if (interrupted && interrupted()) return {Status::AlreadyLocked, true};
    }
}

void LockFile::abandon_wait() {
    if (queue_) queue_->leave();
}

long long LockFile::draw_fence() {
    fence_ = 0;
    if (!held_by_us()) throw ProtocolError("fencing token drawn for a lock not held: " + path_);
    const long long drawn = advance_fence(fence_path(path_));
    // Broken and re-taken while we drew: the new holder's token may equal ours; ours is void.
    struct stat st;
    if (::lstat(path_.c_str(), &st) != 0 || st.st_dev != dev_ || st.st_ino != ino_)
        throw ProtocolError("lock lost while drawing its fencing token: " + path_);
    fence_ = drawn;
    return fence_;
}

bool LockFile::overwrite_record(std::size_t offset, std::string_view bytes,
                                std::size_t record_size) noexcept {
    if (!held_by_us() || !held_fd_ || offset + bytes.size() > record_size) return false;
    // Not on a shared filesystem: a round trip to the server while holding, for a timestamp.
    if (!on_local_filesystem()) return false;
    struct stat st;
    if (::fstat(held_fd_.get(), &st) != 0 || static_cast<std::size_t>(st.st_size) != record_size)
        return false;
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::pwrite(held_fd_.get(), bytes.data() + done, bytes.size() - done,
                             static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

bool LockFile::release() {
    if (!held_) return false;
    held_ = false;
    fence_ = 0;
    UniqueFd keep_inode = std::move(held_fd_);  // closed only after the unlink below
    // After fork the child inherits this object; only the process that linked may unlink.
    if (owner_tag_ != process::current_tag()) return false;
    struct stat st;
    if (::lstat(path_.c_str(), &st) != 0) return false;
    if (st.st_dev != dev_ || st.st_ino != ino_) return false;  // no longer ours
    return ::unlink(path_.c_str()) == 0;
}

void LockFile::force_release() {
    held_ = false;
    fence_ = 0;
    ::unlink(path_.c_str());
    held_fd_.reset();
}

bool LockFile::is_locked() const {
    UniqueFd fd(::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd) {
        if (errno == ENOENT || errno == ENOTDIR) return false;
        struct stat st;
        return ::lstat(path_.c_str(), &st) == 0;  // a symlink or unreadable file still blocks
    }
    struct stat st;
    if (!examine(fd.get(), &st) || !S_ISREG(st.st_mode)) return true;
    HolderFacts facts = read_holder(fd.get(), st, on_local_filesystem());
    return judge(facts, process::self(), system_probe()) != Verdict::Dead;
}

}  // namespace nativelock::file
