// The lock-file protocol against the real filesystem, with forked processes as other owners.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/record.hpp"
#include "file/release_waiter.hpp"
#include "own_record.hpp"
#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/process.hpp"

using namespace nativelock;
using namespace nativelock::file;

namespace {

class FileLockTest : public ::testing::Test {
  protected:
    void SetUp() override {
        char tmpl[] = "/tmp/nl-core-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = std::string(tmpl) + "/";
        path_ = lock_file_path(dir_, "unit lock");
    }
    void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

    static std::string record() { return test_support::own_record("unit lock"); }

    static std::string slurp(const std::string &path) {
        std::ifstream in(path);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }

    size_t entries() const {
        size_t n = 0;
        std::string cmd = "ls -A '" + dir_ + "' | wc -l";
        FILE *p = popen(cmd.c_str(), "r");
        if (fscanf(p, "%zu", &n) != 1) n = 999;
        pclose(p);
        return n;
    }

    std::string dir_;
    std::string path_;
};

// Runs fn in a child process and returns its exit status.
template <class Fn>
pid_t fork_child(Fn fn) {
    pid_t pid = fork();
    if (pid == 0) {
        int code = 0;
        try {
            code = fn();
        } catch (...) {
            code = 99;
        }
        _exit(code);
    }
    return pid;
}

int wait_status(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// An inotify watch for names created in (or moved into) `dir`; not open if it cannot be set.
UniqueFd watch_created(const std::string &dir) {
    UniqueFd watch(inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
    if (watch && inotify_add_watch(watch.get(), dir.c_str(), IN_CREATE | IN_MOVED_TO) < 0)
        watch.reset();
    return watch;
}

// The names in the events queued on an inotify watch of a directory (those its mask asks for:
// names created in or moved into it, for watch_created()).
std::vector<std::string> event_names(int watch) {
    std::vector<std::string> created;
    alignas(struct inotify_event) char buf[4096];
    for (ssize_t n; (n = read(watch, buf, sizeof buf)) > 0;) {
        for (char *p = buf; p < buf + n;) {
            auto *event = reinterpret_cast<struct inotify_event *>(p);
            if (event->len > 0) created.emplace_back(event->name);
            p += sizeof(struct inotify_event) + event->len;
        }
    }
    return created;
}

// Makes this process's kernel refuse linkat(..., AT_EMPTY_PATH) with ENOENT, as kernels before
// 6.10 do for a caller without CAP_DAC_READ_SEARCH. False where seccomp is not available.
bool refuse_descriptor_links() {
#if defined(__x86_64__)
    constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
    return false;
#endif
#if defined(__x86_64__) || (defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_linkat, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        // The flags, linkat's fifth argument (its low word: little-endian).
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[4])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, AT_EMPTY_PATH, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOENT),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]),
                                 filter};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
#endif
}

// Hides /proc from this process (a private mount namespace with an empty tmpfs there).
bool hide_proc() {
    return unshare(CLONE_NEWNS) == 0 &&
           mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
           mount("none", "/proc", "tmpfs", 0, nullptr) == 0;
}

}  // namespace

TEST_F(FileLockTest, AcquireWritesRecordAndLeavesNoTempFile) {
    LockFile lock(path_);
    ASSERT_EQ(lock.try_acquire(record()), Status::Acquired);
    EXPECT_TRUE(lock.held_by_us());
    EXPECT_EQ(slurp(path_), record());
    EXPECT_EQ(entries(), 1u);  // only the lock file itself
    EXPECT_TRUE(lock.release());
    EXPECT_EQ(entries(), 0u);
}

TEST_F(FileLockTest, SecondOwnerInSameProcessIsRefused) {
    LockFile a(path_), b(path_);
    ASSERT_EQ(a.try_acquire(record()), Status::Acquired);
    EXPECT_EQ(b.try_acquire(record()), Status::AlreadyLocked);
    EXPECT_TRUE(b.is_locked());
    EXPECT_EQ(entries(), 1u);
}

TEST_F(FileLockTest, ReleaseLeavesSomeoneElsesFileAlone) {
    LockFile lock(path_);
    ASSERT_EQ(lock.try_acquire(record()), Status::Acquired);
    // Someone forcibly removed ours and another owner took it.
    ASSERT_EQ(unlink(path_.c_str()), 0);
    LockFile other(path_);
    ASSERT_EQ(other.try_acquire(record()), Status::Acquired);
    EXPECT_FALSE(lock.release());
    EXPECT_TRUE(other.is_locked());
    EXPECT_TRUE(other.release());
}

TEST_F(FileLockTest, HeldAndLinkedAsksWhetherTheFileIsStillOurs) {
    LockFile lock(path_);
    EXPECT_FALSE(lock.held_and_linked());
    ASSERT_EQ(lock.try_acquire(record()), Status::Acquired);
    EXPECT_TRUE(lock.held_and_linked());
    // Removed by someone else: held_by_us() still remembers taking it, the file says otherwise.
    ASSERT_EQ(unlink(path_.c_str()), 0);
    EXPECT_TRUE(lock.held_by_us());
    EXPECT_FALSE(lock.held_and_linked());
    // Another owner's file at the same name is not ours either.
    LockFile other(path_);
    ASSERT_EQ(other.try_acquire(record()), Status::Acquired);
    EXPECT_FALSE(lock.held_and_linked());
    EXPECT_TRUE(other.held_and_linked());
    EXPECT_TRUE(other.release());
    EXPECT_FALSE(other.held_and_linked());
}

TEST_F(FileLockTest, HeldAndLinkedThrowsWhenTheFileCannotBeChecked) {
    LockFile lock(path_);
    ASSERT_EQ(lock.try_acquire(record()), Status::Acquired);
    // The directory's path now loops (ELOOP): nothing is known about our file, which is not
    // "gone" (as root, EACCES cannot be provoked; ELOOP takes the same path).
    const std::string dir = dir_.substr(0, dir_.size() - 1), moved = dir + ".moved";
    ASSERT_EQ(rename(dir.c_str(), moved.c_str()), 0);
    ASSERT_EQ(symlink(dir.c_str(), dir.c_str()), 0);
    EXPECT_THROW(lock.held_and_linked(), nativelock::SystemError);
    ASSERT_EQ(unlink(dir.c_str()), 0);
    ASSERT_EQ(rename(moved.c_str(), dir.c_str()), 0);
    EXPECT_TRUE(lock.held_and_linked());
    EXPECT_TRUE(lock.release());
}

TEST_F(FileLockTest, ForceReleaseRemovesAnyOwner) {
    LockFile a(path_), b(path_);
    ASSERT_EQ(a.try_acquire(record()), Status::Acquired);
    b.force_release();
    EXPECT_FALSE(b.is_locked());
}

TEST_F(FileLockTest, DeadOwnerIsBrokenByNextAttempt) {
    pid_t child = fork_child([&] {
        LockFile lock(path_);
        return lock.try_acquire(record()) == Status::Acquired ? 0 : 1;  // exits holding it
    });
    ASSERT_EQ(wait_status(child), 0);
    ASSERT_EQ(access(path_.c_str(), F_OK), 0);
    LockFile lock(path_);
    EXPECT_FALSE(lock.is_locked());
    EXPECT_EQ(lock.try_acquire(record()), Status::Acquired);
}

TEST_F(FileLockTest, LiveOwnerInAnotherProcessIsNotBroken) {
    int ready[2], done[2];
    ASSERT_EQ(pipe(ready), 0);
    ASSERT_EQ(pipe(done), 0);
    pid_t child = fork_child([&] {
        close(done[1]);  // so that the parent's close is the EOF we wait for
        LockFile lock(path_);
        if (lock.try_acquire(record()) != Status::Acquired) return 1;
        char c = 1;
        if (write(ready[1], &c, 1) != 1) return 2;
        if (read(done[0], &c, 1) < 0) return 3;
        return 0;
    });
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    LockFile lock(path_);
    EXPECT_TRUE(lock.is_locked());
    EXPECT_EQ(lock.try_acquire(record()), Status::AlreadyLocked);
    close(done[1]);
    EXPECT_EQ(wait_status(child), 0);
}

TEST_F(FileLockTest, ConcurrentBreakersOfOneStaleLockEndWithExactlyOneOwner) {
    for (int trial = 0; trial < 10; ++trial) {
        pid_t dead = fork_child([&] {
            LockFile lock(path_);
            return lock.try_acquire(record()) == Status::Acquired ? 0 : 1;
        });
        ASSERT_EQ(wait_status(dead), 0);

        int gate[2];
        ASSERT_EQ(pipe(gate), 0);
        std::vector<pid_t> breakers;
        for (int i = 0; i < 8; ++i) {
            breakers.push_back(fork_child([&] {
                close(gate[1]);
                char c;
                if (read(gate[0], &c, 1) < 0) return 3;  // all start together
                LockFile lock(path_);
                Status s = lock.try_acquire(record());
                // Stay alive so the others cannot judge the winner dead.
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
                return s == Status::Acquired ? 0 : 1;
            }));
        }
        close(gate[0]);
        close(gate[1]);
        int winners = 0;
        for (pid_t p : breakers) winners += wait_status(p) == 0;
        EXPECT_EQ(winners, 1) << "trial " << trial;
        unlink(path_.c_str());
    }
}

TEST_F(FileLockTest, ForkedChildDoesNotReleaseParentsLock) {
    LockFile lock(path_);
    ASSERT_EQ(lock.try_acquire(record()), Status::Acquired);
    pid_t child = fork_child([&] { return lock.release() ? 1 : 0; });
    EXPECT_EQ(wait_status(child), 0);
    EXPECT_EQ(access(path_.c_str(), F_OK), 0);
    EXPECT_TRUE(lock.held_by_us());
    EXPECT_TRUE(lock.release());
}

TEST_F(FileLockTest, BlockingAcquireWakesOnRelease) {
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    pid_t child = fork_child([&] {
        LockFile lock(path_);
        if (lock.try_acquire(record()) != Status::Acquired) return 1;
        char c = 1;
        if (write(ready[1], &c, 1) != 1) return 2;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        return lock.release() ? 0 : 4;
    });
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    LockFile lock(path_);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(lock.acquire(record(), Deadline::after(10), nullptr).status, Status::Acquired);
    auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_LT(waited, std::chrono::seconds(5));
    EXPECT_EQ(wait_status(child), 0);
}

TEST_F(FileLockTest, BlockingAcquireWakesWhenOwnerDies) {
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    pid_t child = fork_child([&] {
        LockFile lock(path_);
        if (lock.try_acquire(record()) != Status::Acquired) return 1;
        char c = 1;
        if (write(ready[1], &c, 1) != 1) return 2;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        return 0;  // dies holding the lock
    });
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    std::thread reaper([&] { wait_status(child); });
    LockFile lock(path_);
    EXPECT_EQ(lock.acquire(record(), Deadline::after(10), nullptr).status, Status::Acquired);
    reaper.join();
}

TEST_F(FileLockTest, BlockingAcquireTimesOut) {
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    LockFile lock(path_);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(lock.acquire(record(), Deadline::after(0.2), nullptr).status, Status::AlreadyLocked);
    auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_GE(waited, std::chrono::milliseconds(190));
    EXPECT_LT(waited, std::chrono::seconds(3));
}

TEST_F(FileLockTest, InterruptEndsTheWaitMarkedInterrupted) {
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    LockFile lock(path_);
    int calls = 0;
    WaitResult result = lock.acquire(record(), Deadline::never(), [&] { return ++calls >= 2; });
    EXPECT_EQ(result.status, Status::AlreadyLocked);
    EXPECT_TRUE(result.interrupted);
    EXPECT_EQ(calls, 2);
}

TEST_F(FileLockTest, TimeoutIsNotMarkedInterrupted) {
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    LockFile lock(path_);
    WaitResult result = lock.acquire(record(), Deadline::after(0.05), [] { return false; });
    EXPECT_EQ(result.status, Status::AlreadyLocked);
    EXPECT_FALSE(result.interrupted);
}

TEST_F(FileLockTest, PlantedSymlinkIsNeverFollowedNorRemoved) {
    std::string target = dir_ + "target";
    { std::ofstream(target) << "precious"; }
    ASSERT_EQ(symlink(target.c_str(), path_.c_str()), 0);
    LockFile lock(path_);
    EXPECT_EQ(lock.try_acquire(record()), Status::AlreadyLocked);
    EXPECT_TRUE(lock.is_locked());
    EXPECT_EQ(slurp(target), "precious");
    struct stat st;
    ASSERT_EQ(lstat(path_.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST_F(FileLockTest, MissingDirectoryFailsToObtain) {
    LockFile lock(dir_ + "missing/x.lock");
    Contention c;
    EXPECT_EQ(lock.try_acquire(record(), &c), Status::FailedToObtain);
    EXPECT_EQ(c.error, ENOENT);
    EXPECT_FALSE(lock.is_locked());
}

TEST_F(FileLockTest, ForeignRecordIsNeverBroken) {
    // Unreadable junk in the lock file: not provably dead, so it stands.
    { std::ofstream(path_) << "not a serialized array"; }
    LockFile lock(path_);
    EXPECT_EQ(lock.try_acquire(record()), Status::AlreadyLocked);
    EXPECT_TRUE(lock.is_locked());
}

TEST_F(FileLockTest, TheNamedTempFilePathWritesTheRecordAndLeavesNoTempFile) {
    // What shared filesystems use (and systems without O_TMPFILE).
    LockFile lock(path_);
    lock.use_named_temp_file();
    ASSERT_EQ(lock.try_acquire(record()), Status::Acquired);
    EXPECT_EQ(slurp(path_), record());
    EXPECT_EQ(entries(), 1u);
    LockFile other(path_);
    other.use_named_temp_file();
    EXPECT_EQ(other.try_acquire(record()), Status::AlreadyLocked);
    EXPECT_EQ(entries(), 1u);
    EXPECT_TRUE(lock.release());
    EXPECT_EQ(entries(), 0u);
}

TEST_F(FileLockTest, OnALocalFilesystemNoNameButTheLockFileIsEverCreated) {
    // The record goes to an unnamed file: the directory sees the lock file appear, and no
    // temp file (the named path would create and remove "<lock>.pid.N.mtrand.M").
    UniqueFd watch = watch_created(dir_);
    ASSERT_TRUE(watch);
    LockFile lock(path_);
    ASSERT_EQ(lock.try_acquire(record()), Status::Acquired);
    LockFile other(path_);
    EXPECT_EQ(other.try_acquire(record()), Status::AlreadyLocked);
    EXPECT_EQ(slurp(path_), record());  // a refused attempt changes nothing
    struct stat st;
    ASSERT_EQ(lstat(path_.c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_nlink, 1u);
    EXPECT_TRUE(lock.release());
    const std::string base = path_.substr(path_.rfind('/') + 1);
    EXPECT_EQ(event_names(watch.get()), std::vector<std::string>{base});
    EXPECT_EQ(entries(), 0u);
}

// Waits (up to 2 s) until process `pid` holds open an unnamed file of directory `dir`: a waiting
// head's prepared record file.
bool holds_prepared_file(pid_t pid, const std::string &dir) {
    char resolved[PATH_MAX];
    if (!realpath(dir.c_str(), resolved)) return false;
    const std::string real_dir = std::string(resolved) + "/";
    const std::string fds = "/proc/" + std::to_string(pid) + "/fd/";
    for (int i = 0; i < 200; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        for (int fd = 0; fd < 64; ++fd) {
            char target[512];
            ssize_t n = readlink((fds + std::to_string(fd)).c_str(), target, sizeof target - 1);
            if (n <= 0) continue;
            const std::string t(target, static_cast<size_t>(n));
            if (t.rfind(real_dir, 0) == 0 && t.find("(deleted)") != std::string::npos) return true;
        }
    }
    return false;
}

TEST_F(FileLockTest, AWaitingHeadKilledLeavesNothingBehind) {
    // The head of the queue writes its record into an unnamed file while it waits: killed,
    // it leaves no file in the lock directory (a named temp file would stay there for good).
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    pid_t child = fork_child([&] {
        LockFile lock(path_);
        return lock.acquire(record(), Deadline::after(30), nullptr).status == Status::Acquired ? 0
                                                                                               : 1;
    });
    // Wait until the child holds its prepared file open (the wait's first failed attempt).
    EXPECT_TRUE(holds_prepared_file(child, dir_));
    ASSERT_EQ(kill(child, SIGKILL), 0);
    EXPECT_EQ(wait_status(child), -1);
    EXPECT_EQ(entries(), 1u);  // the holder's lock file, nothing else
    EXPECT_EQ(slurp(path_), record());
    EXPECT_TRUE(holder.release());
    EXPECT_EQ(entries(), 0u);
}

TEST_F(FileLockTest, AHeadThatWaitedTakesTheLockWithTheMtimeOfTheHandOff) {
    // The head writes its record into an unnamed file at once, and links it when the holder
    // releases: the lock file's mtime must still say when the lock was taken, for whoever
    // judges a lock's age by it, not when the head began to wait.
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    int got[2], done[2];
    ASSERT_EQ(pipe(got), 0);
    ASSERT_EQ(pipe(done), 0);
    pid_t child = fork_child([&] {
        close(got[0]);
        close(done[1]);
        LockFile lock(path_);
        if (lock.acquire(record(), Deadline::after(30), nullptr).status != Status::Acquired)
            return 1;
        char c = 'y';
        if (write(got[1], &c, 1) != 1) return 2;
        (void)!read(done[0], &c, 1);  // until the parent has looked (or is gone)
        return lock.release() ? 0 : 3;
    });
    close(got[1]);
    close(done[0]);
    // The head's file is prepared (so the hand-off links it), and older than a second by then.
    const bool prepared = holds_prepared_file(child, dir_);
    EXPECT_TRUE(prepared);
    std::this_thread::sleep_for(std::chrono::milliseconds(2200));
    const time_t released = time(nullptr);
    EXPECT_TRUE(holder.release());
    char c = 0;
    EXPECT_EQ(read(got[0], &c, 1), 1);
    struct stat st;
    const bool present = lstat(path_.c_str(), &st) == 0;
    EXPECT_TRUE(present);
    if (present && prepared) EXPECT_GE(st.st_mtim.tv_sec, released);
    close(done[1]);
    close(got[0]);
    EXPECT_EQ(wait_status(child), 0);
    EXPECT_EQ(entries(), 0u);
}

TEST_F(FileLockTest, OverwriteRecordWritesOnlyIntoAHeldRecordOfTheGivenLength) {
    const std::string mine = record();
    std::string later = mine;
    later.replace(2, 3, "xyz");
    for (bool named : {false, true}) {
        LockFile lock(path_);
        if (named) lock.use_named_temp_file();
        EXPECT_FALSE(lock.overwrite_record(2, "xyz", mine.size()));  // not held
        ASSERT_EQ(lock.try_acquire(mine), Status::Acquired);
        EXPECT_FALSE(lock.overwrite_record(2, "xyz", mine.size() + 1));            // another length
        EXPECT_FALSE(lock.overwrite_record(mine.size() - 1, "xyz", mine.size()));  // past the end
        EXPECT_EQ(slurp(path_), mine);
        EXPECT_TRUE(lock.overwrite_record(2, "xyz", mine.size()));
        EXPECT_EQ(slurp(path_), later);
        EXPECT_TRUE(lock.release());
        EXPECT_FALSE(lock.overwrite_record(2, "xyz", mine.size()));
        EXPECT_EQ(entries(), 0u);
    }
    // A lock file removed (force-released) and taken by another: only our own inode is written.
    LockFile lock(path_);
    ASSERT_EQ(lock.try_acquire(mine), Status::Acquired);
    ASSERT_EQ(unlink(path_.c_str()), 0);
    LockFile other(path_);
    ASSERT_EQ(other.try_acquire(mine), Status::Acquired);
    lock.overwrite_record(2, "xyz", mine.size());
    EXPECT_EQ(slurp(path_), mine);
    EXPECT_TRUE(other.release());
}

TEST_F(FileLockTest, EveryWaiterOfAQueueLinksItsOwnRecord) {
    // Three processes: the holder, the head (head at once: its record's file is kept from its
    // first attempt) and one behind it (promoted while the lock is held: it prepares its
    // record before the release). Each must find its own record in the lock file.
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    int got[2];
    ASSERT_EQ(pipe(got), 0);
    auto waiter = [&](const std::string &mine) {
        return fork_child([&, mine] {
            close(got[0]);
            LockFile lock(path_);
            if (lock.acquire(mine, Deadline::after(30), nullptr).status != Status::Acquired)
                return 1;
            const bool own = slurp(path_) == mine;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (!lock.release()) return 2;
            char c = own ? 'y' : 'n';
            return write(got[1], &c, 1) == 1 ? 0 : 3;
        });
    };
    pid_t first = waiter(test_support::own_record("first"));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    pid_t second = waiter(test_support::own_record("second"));
    close(got[1]);  // a child that exits without writing must not leave the reads below hanging
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(holder.release());
    EXPECT_EQ(wait_status(first), 0);
    EXPECT_EQ(wait_status(second), 0);
    char answers[3] = {};
    EXPECT_EQ(read(got[0], answers, sizeof answers), 2);
    close(got[0]);
    EXPECT_STREQ(answers, "yy");
    EXPECT_EQ(entries(), 0u);
}

// How a child process was left to link its records (see LockFile::link_unnamed()).
enum class Links {
    kDescriptorOnly,        // /proc hidden: by descriptor, where the kernel allows it
    kNamedOnceProcIsGone,   // descriptor refused; /proc there for a first lock, then hidden
    kNamedWithoutProcEver,  // descriptor refused and /proc hidden from the start
};

struct LinkOutcome {
    int status = -1;                   // the child's exit status, or one of skip_reason()'s
    std::vector<std::string> created;  // names created in the directory by the second lock
    // LockFile::descriptor_linking() in the child at the end
    LockFile::DescriptorLinking linking = LockFile::DescriptorLinking::Untried;
};

// Why a child of lock_and_list_names() could not run its case (nullptr: it ran).
const char *skip_reason(int status) {
    switch (status) {
        case 77:
            return "needs a mount namespace (root) and seccomp";
        case 78:
            return "the kernel refuses AT_EMPTY_PATH here";
        case 79:
            return "no O_TMPFILE in the test directory";
        default:
            return nullptr;
    }
}

// In a child left only one way to link: a lock (after a first one, to learn), checked to hold
// its record and exclude another, then released, with the names the directory saw created.
LinkOutcome lock_and_list_names(const std::string &dir, const std::string &path, Links links) {
    LinkOutcome outcome;
    int names[2];
    if (pipe(names) != 0) return outcome;
    pid_t child = fork_child([&] {
        close(names[0]);
        const std::string mine = test_support::own_record("unit lock");  // read from /proc
        // These ways link unnamed files: a directory without O_TMPFILE (overlayfs before 6.6)
        // makes none.
        UniqueFd probe(open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600));
        if (!probe) return 79;
        if (links == Links::kDescriptorOnly) {
            // Before Linux 6.10 only CAP_DAC_READ_SEARCH may link by descriptor.
            const std::string probe_path = dir + "probe";
            if (linkat(probe.get(), "", AT_FDCWD, probe_path.c_str(), AT_EMPTY_PATH) != 0)
                return errno == ENOENT ? 78 : 2;
            unlink(probe_path.c_str());
        } else if (!refuse_descriptor_links()) {
            return 77;
        }
        probe.reset();
        if (links != Links::kNamedOnceProcIsGone && !hide_proc()) return 77;
        LockFile lock(path);
        if (lock.try_acquire(mine) != Status::Acquired || !lock.release()) return 1;
        if (links == Links::kNamedOnceProcIsGone && !hide_proc()) return 77;
        UniqueFd watch = watch_created(dir);
        if (!watch) return 2;
        if (lock.try_acquire(mine) != Status::Acquired) return 3;
        std::ifstream in(path);
        if (std::string((std::istreambuf_iterator<char>(in)), {}) != mine) return 4;
        LockFile other(path);
        if (other.try_acquire(mine) != Status::AlreadyLocked) return 5;
        if (!lock.release()) return 6;
        std::string list = std::to_string(static_cast<int>(LockFile::descriptor_linking())) + "\n";
        for (const auto &name : event_names(watch.get())) list += name + "\n";
        return write(names[1], list.data(), list.size()) == ssize_t(list.size()) ? 0 : 7;
    });
    close(names[1]);
    std::string list;
    char buf[4096];
    for (ssize_t n; (n = read(names[0], buf, sizeof buf)) > 0;) list.append(buf, size_t(n));
    close(names[0]);
    outcome.linking = static_cast<LockFile::DescriptorLinking>(std::atoi(list.c_str()));
    size_t at = list.find('\n');
    for (size_t end;
         at != std::string::npos && (end = list.find('\n', at + 1)) != std::string::npos; at = end)
        outcome.created.push_back(list.substr(at + 1, end - at - 1));
    outcome.status = wait_status(child);
    return outcome;
}

TEST_F(FileLockTest, AnUnnamedFileIsLinkedByItsDescriptorWithoutProc) {
    // linkat(AT_EMPTY_PATH) (Linux 6.10+, or CAP_DAC_READ_SEARCH): no /proc needed.
    const LinkOutcome outcome = lock_and_list_names(dir_, path_, Links::kDescriptorOnly);
    if (const char *why = skip_reason(outcome.status)) GTEST_SKIP() << why;
    EXPECT_EQ(outcome.status, 0);
    EXPECT_EQ(outcome.linking, LockFile::DescriptorLinking::Linked);
    const std::string base = path_.substr(path_.rfind('/') + 1);
    EXPECT_EQ(outcome.created, std::vector<std::string>{base});  // the lock file, no temp name
    EXPECT_EQ(entries(), 0u);
}

TEST_F(FileLockTest, WhereTheKernelRefusesTheDescriptorProcLinksTheUnnamedFile) {
    // A kernel before 6.10, unprivileged: the unnamed file is linked through /proc instead, and
    // still no temp name is made.
    pid_t child = fork_child([&] {
        if (!UniqueFd(open(dir_.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600))) return 79;
        if (!refuse_descriptor_links()) return 77;
        UniqueFd watch = watch_created(dir_);
        if (!watch) return 2;
        for (int i = 0; i < 2; ++i) {
            LockFile lock(path_);
            if (lock.try_acquire(record()) != Status::Acquired || slurp(path_) != record())
                return 3;
            LockFile other(path_);
            if (other.try_acquire(record()) != Status::AlreadyLocked || !lock.release()) return 4;
        }
        const std::string base = path_.substr(path_.rfind('/') + 1);
        // Twice the same name, which inotify reports once (unread identical events merge).
        if (event_names(watch.get()) != std::vector<std::string>{base}) return 5;
        // Learned: the descriptor is not tried again.
        return LockFile::descriptor_linking() == LockFile::DescriptorLinking::Refused ? 0 : 6;
    });
    const int status = wait_status(child);
    if (const char *why = skip_reason(status)) GTEST_SKIP() << why;
    EXPECT_EQ(status, 0);
    EXPECT_EQ(entries(), 0u);
}

// A child that locked through the named temp file, having learned that the kernel refuses the
// descriptor: the lock file once, temp names beside it ("<lock>.<pid>.<n>").
void expect_named_temp_files(const LinkOutcome &outcome, const std::string &base) {
    EXPECT_EQ(outcome.status, 0);
    EXPECT_EQ(outcome.linking, LockFile::DescriptorLinking::Refused);
    ASSERT_GE(outcome.created.size(), 2u);
    EXPECT_EQ(std::count(outcome.created.begin(), outcome.created.end(), base), 1);
    for (const auto &name : outcome.created)
        if (name != base) EXPECT_EQ(name.rfind(base + ".", 0), 0u) << name;
}

TEST_F(FileLockTest, WhereNeitherCanLinkTheNamedTempFileIsUsed) {
    // The kernel refuses AT_EMPTY_PATH and /proc went away (or refuses it) after the first
    // lock: the process still locks, through a named temp file that it removes.
    const LinkOutcome outcome = lock_and_list_names(dir_, path_, Links::kNamedOnceProcIsGone);
    if (const char *why = skip_reason(outcome.status)) GTEST_SKIP() << why;
    expect_named_temp_files(outcome, path_.substr(path_.rfind('/') + 1));
    EXPECT_EQ(entries(), 0u);
}

TEST_F(FileLockTest, WithNeitherFromTheStartTheRefusalIsLearned) {
    // No /proc at all and a kernel that refuses AT_EMPTY_PATH: both links fail with ENOENT
    // while the directory is there, so the process stops trying the descriptor (it would cost
    // every new lock object an unnamed file and two failing links before its named temp file).
    const LinkOutcome outcome = lock_and_list_names(dir_, path_, Links::kNamedWithoutProcEver);
    if (const char *why = skip_reason(outcome.status)) GTEST_SKIP() << why;
    expect_named_temp_files(outcome, path_.substr(path_.rfind('/') + 1));
    EXPECT_EQ(entries(), 0u);
}

namespace {

// The system call a waiting head sleeps in, as /proc/PID/syscall names it (nullopt: that file
// cannot be read here, as under Yama's ptrace_scope 2).
std::optional<bool> in_poll(pid_t pid) {
#if defined(SYS_poll)
    constexpr long kPoll = SYS_poll;
#else
    constexpr long kPoll = SYS_ppoll;
#endif
    std::ifstream in("/proc/" + std::to_string(pid) + "/syscall");
    std::string first;
    if (!(in >> first)) return std::nullopt;
    return first == std::to_string(kPoll);
}

enum class Stop { InPoll, CannotSee, Failed };

// Stops `pid` while it sleeps in poll(), waiting for a release (up to 5 s of tries). A head
// that timed out and was stopped on its way out of poll() still shows it: where that matters
// the test makes the poll interval long. A head that exited is left for the caller to reap.
Stop stop_in_poll(pid_t pid) {
    for (int i = 0; i < 500; ++i) {
        const std::optional<bool> polling = in_poll(pid);
        if (!polling) return Stop::CannotSee;
        if (*polling) {
            siginfo_t info{};
            if (kill(pid, SIGSTOP) != 0 ||
                waitid(P_PID, static_cast<id_t>(pid), &info, WSTOPPED | WEXITED | WNOWAIT) != 0 ||
                info.si_code != CLD_STOPPED)
                return Stop::Failed;
            if (in_poll(pid).value_or(false)) return Stop::InPoll;
            kill(pid, SIGCONT);  // stopped elsewhere
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return Stop::Failed;
}

// How often `name` was opened, by the events queued now on a watch of IN_OPEN.
long opens_of(int watch, const std::string &name) {
    const std::vector<std::string> names = event_names(watch);
    return std::count(names.begin(), names.end(), name);
}

// Whatever assertion ends a test: its children are killed (stopped ones too) and reaped, its
// descriptors closed, and the poll interval is the default again.
class Leftovers {
  public:
    ~Leftovers() {
        for (pid_t pid : children_) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        for (int fd : fds_) close(fd);
        if (poll_start_) test_hooks::set_local_poll_start(*poll_start_);
    }
    pid_t child(pid_t pid) {
        children_.push_back(pid);
        return pid;
    }
    void pipe_of(int ends[2]) {
        ASSERT_EQ(pipe(ends), 0);
        fds_.push_back(ends[0]);
        fds_.push_back(ends[1]);
    }
    // Closes one end here (the child's, once it has forked).
    void close_end(int fd) {
        fds_.erase(std::remove(fds_.begin(), fds_.end(), fd), fds_.end());
        close(fd);
    }
    // Forked waiters' first poll interval, for this test.
    void poll_start(std::chrono::milliseconds start) {
        const auto previous = test_hooks::set_local_poll_start(start);
        if (!poll_start_) poll_start_ = previous;
    }
    // Reaps a child (wait_status()), which is then no longer killed at the end.
    int wait(pid_t pid) {
        children_.erase(std::remove(children_.begin(), children_.end(), pid), children_.end());
        return wait_status(pid);
    }

  private:
    std::vector<pid_t> children_;
    std::vector<int> fds_;
    std::optional<std::chrono::milliseconds> poll_start_;
};

// How often process `pid` has gone to sleep (voluntary context switches), -1 if unknown.
long voluntary_switches(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("voluntary_ctxt_switches:", 0) == 0)
            return std::atol(line.c_str() + sizeof "voluntary_ctxt_switches:" - 1);
    }
    return -1;
}

// A forked head that waits up to 30 s for the lock at `path`; exits 0 once it holds it.
pid_t waiting_head(const std::string &path, const std::string &record) {
    return fork_child([&] {
        LockFile lock(path);
        return lock.acquire(record, Deadline::after(30), nullptr).status == Status::Acquired ? 0
                                                                                             : 1;
    });
}

// `holder` takes the lock at `path`, and a forked head that waits for it (in *head) is
// stopped in its wait.
Stop held_with_a_stopped_head(LockFile &holder, const std::string &path, const std::string &record,
                              Leftovers &leftovers, pid_t *head) {
    if (holder.try_acquire(record) != Status::Acquired) return Stop::Failed;
    *head = leftovers.child(waiting_head(path, record));
    return stop_in_poll(*head);
}

}  // namespace

TEST_F(FileLockTest, AHeadThatLosesTheLockToARetakeAfterAReleaseWaitsWithoutReadingTheHolder) {
    // Under contention about one hand-off in three goes to a newcomer in the barging window: the
    // head, woken by the release, finds a lock file that a live process linked since. Reading
    // and judging that holder cost eleven system calls, on the holder's time; the head waits for
    // the next release instead (a holder that dies meanwhile: the next tests).
    Leftovers leftovers;
    // Long poll intervals: the head judges at the end of one whatever happened.
    leftovers.poll_start(std::chrono::seconds(10));
    UniqueFd watch(inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
    ASSERT_TRUE(watch);
    ASSERT_GE(inotify_add_watch(watch.get(), dir_.c_str(), IN_OPEN), 0);
    const std::string name = path_.substr(path_.rfind('/') + 1);

    LockFile holder(path_);
    pid_t head = -1;
    const Stop stop = held_with_a_stopped_head(holder, path_, record(), leftovers, &head);
    if (stop == Stop::CannotSee) GTEST_SKIP() << "/proc/PID/syscall cannot be read here";
    ASSERT_EQ(stop, Stop::InPoll);

    int to_retaker[2], from_retaker[2];
    ASSERT_NO_FATAL_FAILURE(leftovers.pipe_of(to_retaker));
    ASSERT_NO_FATAL_FAILURE(leftovers.pipe_of(from_retaker));
    ASSERT_TRUE(holder.release());
    const pid_t retaker = leftovers.child(fork_child([&] {
        close(to_retaker[1]);
        close(from_retaker[0]);
        LockFile lock(path_);
        char c = lock.try_acquire(record()) == Status::Acquired ? 'h' : 'x';
        if (write(from_retaker[1], &c, 1) != 1 || c != 'h') return 1;
        if (read(to_retaker[0], &c, 1) != 1) return 2;
        return lock.release() ? 0 : 3;
    }));
    // Its ends closed here: a retaker that fails without a word ends our read.
    leftovers.close_end(to_retaker[0]);
    leftovers.close_end(from_retaker[1]);
    char c = 0;
    ASSERT_EQ(read(from_retaker[0], &c, 1), 1);
    ASSERT_EQ(c, 'h');

    opens_of(watch.get(), name);  // every open so far (the head's first judgement among them)
    const long slept = voluntary_switches(head);
    ASSERT_EQ(kill(head, SIGCONT), 0);
    // Until the head has woken, tried and gone back to waiting.
    bool waited_again = false;
    for (int i = 0; i < 500 && !waited_again; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        waited_again = voluntary_switches(head) > slept && in_poll(head).value_or(false);
    }
    EXPECT_TRUE(waited_again);
    EXPECT_EQ(opens_of(watch.get(), name), 0);
    EXPECT_EQ(waitpid(head, nullptr, WNOHANG), 0);  // still waiting

    ASSERT_EQ(write(to_retaker[1], "r", 1), 1);
    EXPECT_EQ(leftovers.wait(retaker), 0);
    EXPECT_EQ(leftovers.wait(head), 0);  // took the lock at the retaker's release
}

TEST_F(FileLockTest, AHolderThatRetookTheLockAfterAReleaseAndDiedIsBrokenByTheHead) {
    // The head does not judge the retaker when its link fails (previous test): a retaker that
    // dies holding is judged at the end of the poll interval, and broken.
    Leftovers leftovers;
    LockFile holder(path_);
    pid_t head = -1;
    const Stop stop = held_with_a_stopped_head(holder, path_, record(), leftovers, &head);
    if (stop == Stop::CannotSee) GTEST_SKIP() << "/proc/PID/syscall cannot be read here";
    ASSERT_EQ(stop, Stop::InPoll);
    ASSERT_TRUE(holder.release());
    const pid_t retaker = leftovers.child(fork_child([&] {
        LockFile lock(path_);
        return lock.try_acquire(record()) == Status::Acquired ? 0 : 1;  // dies holding it
    }));
    EXPECT_EQ(leftovers.wait(retaker), 0);  // reaped: its pid is free
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(kill(head, SIGCONT), 0);
    EXPECT_EQ(leftovers.wait(head), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(FileLockTest, EventsForTheLockNameThatKeepComingDoNotKeepADeadHolderUnjudged) {
    // The head watches the directory the path named when its wait began. Once a symlink in the
    // path is switched to another directory, events for the lock's name in the old one still
    // wake the head as releases, while the path names a file of a holder that died. The head
    // judges at least once per first poll interval all the same (50 ms; here 1 s, so that
    // the events, 5 ms apart, come well within one).
    Leftovers leftovers;
    leftovers.poll_start(std::chrono::seconds(1));
    const std::string old_dir = dir_ + "one", new_dir = dir_ + "two", link = dir_ + "current";
    ASSERT_EQ(mkdir(old_dir.c_str(), 0755), 0);
    ASSERT_EQ(mkdir(new_dir.c_str(), 0755), 0);
    ASSERT_EQ(symlink(old_dir.c_str(), link.c_str()), 0);
    const std::string name = "churned.lock";
    const std::string path = link + "/" + name;

    LockFile holder(path);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    const pid_t head = leftovers.child(waiting_head(path, record()));
    bool waiting = false;
    for (int i = 0; i < 500 && !waiting; ++i) {
        const std::optional<bool> polling = in_poll(head);
        if (!polling) GTEST_SKIP() << "/proc/PID/syscall cannot be read here";
        waiting = *polling;
        if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(waiting);

    // A holder of the lock in the new directory that dies holding it.
    const pid_t dead = leftovers.child(fork_child([&] {
        LockFile lock(new_dir + "/" + name);
        return lock.try_acquire(record()) == Status::Acquired ? 0 : 1;
    }));
    ASSERT_EQ(leftovers.wait(dead), 0);
    const std::string switched = dir_ + "current.new";
    ASSERT_EQ(symlink(new_dir.c_str(), switched.c_str()), 0);
    ASSERT_EQ(rename(switched.c_str(), link.c_str()), 0);

    // Events for the name in the old directory, every 5 ms for up to 5 s.
    const std::string old_name = old_dir + "/" + name;
    bool took = false;
    for (int i = 0; i < 1000 && !took; ++i) {
        unlink(old_name.c_str());
        UniqueFd again(open(old_name.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        int status = 0;
        took = waitpid(head, &status, WNOHANG) == head;
        if (took) {
            leftovers.wait(head);  // already reaped: only forgets it
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
    }
    EXPECT_TRUE(took) << "the head never judged the dead holder while the events came";
}
