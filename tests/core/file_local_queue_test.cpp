// The host-local waiter queue of Filelock, with forked processes as the other waiters.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/process.hpp"
#include "file/local_queue.hpp"
#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/record.hpp"
#include "own_record.hpp"

using namespace nativelock;
using namespace nativelock::file;
using namespace std::chrono_literals;

namespace {

// Each test queues on a path of its own, so runs in parallel never share a slot.
std::string unique_path(const char *what) {
    return "/tmp/nl-queue-test-" + std::to_string(::getpid()) + "-" + what;
}

struct Pipe {
    int fds[2];
    Pipe() { EXPECT_EQ(::pipe(fds), 0); }
    ~Pipe() {
        ::close(fds[0]);
        ::close(fds[1]);
    }
    void put(char c) { EXPECT_EQ(::write(fds[1], &c, 1), 1); }
    // The next byte, or 0 if none arrives within `ms`.
    char get(int ms) {
        struct pollfd p = {fds[0], POLLIN, 0};
        if (::poll(&p, 1, ms) != 1) return 0;
        char c = 0;
        return ::read(fds[0], &c, 1) == 1 ? c : 0;
    }
};

// How many requests wait for the place byte `slot` (the lines /proc/locks marks "->").
int blocked_behind(std::uint64_t slot) {
    std::ifstream locks("/proc/locks");
    const std::string start = " " + std::to_string(slot) + " ";
    int blocked = 0;
    for (std::string line; std::getline(locks, line);) {
        if (line.find("->") != std::string::npos && (line + " ").find(start) != std::string::npos)
            ++blocked;
    }
    return blocked;
}

int wait_child(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

// A child that queues, reports 'j' once joined, and when it becomes the head reports its tag,
// holds the head's place for `hold`, and leaves.
pid_t spawn_waiter(const std::string &path, Pipe &events, char tag,
                   std::chrono::milliseconds hold) {
    pid_t pid = ::fork();
    if (pid == 0) {
        LocalQueue queue(path);
        if (!queue.join()) ::_exit(2);
        events.put('j');
        while (!queue.wait_for_turn(Deadline::never(), 1000)) {
        }
        events.put(tag);
        std::this_thread::sleep_for(hold);
        queue.leave();
        ::_exit(0);
    }
    return pid;
}

TEST(LocalQueue, FirstComerIsHeadAtOnceAndIsSeenByOthers) {
    const std::string path = unique_path("first");
    LocalQueue queue(path), other(path);
    EXPECT_FALSE(other.others_waiting());
    ASSERT_TRUE(queue.join());
    EXPECT_TRUE(queue.is_head());
    EXPECT_TRUE(other.others_waiting());
    queue.leave();
    EXPECT_FALSE(queue.joined());
    EXPECT_FALSE(other.others_waiting());
}

// The queue file of `uid`, where the engine puts it (/dev/shm, or /tmp without one).
std::string queue_file_of(uid_t uid) {
    struct stat st;
    return std::string(::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp") +
           "/nativelock-queue2." + std::to_string(uid);
}

// No account's uid: the uid tests make and remove its queue file, which a live service's
// processes (nobody's, say) would be queueing in.
constexpr uid_t kOtherUid = 60917;

// In a forked child: `as_root`, then seteuid(kOtherUid), then `as_other`. Returns the child's
// exit code: the bodies' failure bits, 4 if kOtherUid's queue file was not made by it, 100 if
// seteuid() was refused (a user namespace without that uid: the caller skips).
int across_a_uid_change(const std::function<int()> &as_root, const std::function<int()> &as_other) {
    const std::string theirs = queue_file_of(kOtherUid);
    ::unlink(theirs.c_str());
    pid_t child = ::fork();
    if (child == 0) {
        int failures = as_root();
        if (::seteuid(kOtherUid) != 0) ::_exit(100);
        failures |= as_other();
        struct stat made;
        if (::stat(theirs.c_str(), &made) != 0 || made.st_uid != kOtherUid) failures |= 4;
        ::_exit(failures);
    }
    int status = 0;
    const bool reaped = child > 0 && ::waitpid(child, &status, 0) == child;
    ::unlink(theirs.c_str());
    return reaped && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Joins `path`'s queue in a scope of its own: 0, or `failure` if it was not the head at once.
int join_and_leave(const std::string &path, int failure) {
    const LocalQueue::EuidScope scope;
    LocalQueue queue(path);
    const bool head = queue.join() && queue.is_head();
    queue.leave();  // its descriptor becomes a spare
    return head ? 0 : failure;
}

// The queue file is per effective uid. Within an EuidScope (one acquire()) the uid is asked
// once; the next scope asks again, so a process that changed its uid between acquisitions
// queues in that uid's file, not through the spare descriptors of the old one.
TEST(LocalQueue, AChangeOfUidBetweenScopesQueuesInThatUidsFile) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to change the effective uid";
    const std::string path = unique_path("uid");
    const int code = across_a_uid_change([&] { return join_and_leave(path, 1); },
                                         [&] { return join_and_leave(path, 2); });
    if (code == 100) GTEST_SKIP() << "seteuid(" << kOtherUid << ") refused";
    EXPECT_EQ(code, 0) << "1: first join, 2: second join, 4: not the new uid's file";
}

// A place kept across a change of uid (an interrupted wait keeps its place; a signal handler
// may posix_seteuid() before the next round) is given up when left, not kept as a spare: the
// next wait of the new uid queues in that uid's file.
TEST(LocalQueue, APlaceOpenedAsAnotherUidIsNotKeptAsASpare) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to change the effective uid";
    const std::string path = unique_path("uid-spare");
    LocalQueue kept(path);  // used in the child only
    const int code = across_a_uid_change(
        [&] {
            const LocalQueue::EuidScope scope;
            return kept.join() && kept.is_head() ? 0 : 1;
        },
        [&] {
            {
                const LocalQueue::EuidScope scope;
                kept.leave();
            }
            return join_and_leave(path, 2);
        });
    if (code == 100) GTEST_SKIP() << "seteuid(" << kOtherUid << ") refused";
    EXPECT_EQ(code, 0) << "1: first join, 2: second join, 4: the old uid's place was reused";
}

// A waiter the kernel has woken but that has not run yet holds the slot's presence byte and not
// its place byte. A newcomer sees the queue as taken and leaves the place to that waiter: it
// queues behind it once it takes the place, and takes the place itself only after a bounded
// while if it never does (a stopped process).
TEST(LocalQueue, ANewcomerLeavesAPassingPlaceToTheWokenWaiter) {
    const std::string path = unique_path("passing");
    LocalQueue newcomer(path);
    const std::string queue_file = queue_file_of(::geteuid());
    auto byte_lock = [&](std::uint64_t offset, short type) {
        int fd = ::open(queue_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        struct flock range {};
        range.l_type = type;
        range.l_whence = SEEK_SET;
        range.l_start = static_cast<off_t>(offset);
        range.l_len = 1;
        EXPECT_EQ(::fcntl(fd, F_OFD_SETLK, &range), 0);
        return fd;
    };
    const std::uint64_t presence = newcomer.slot() + 1;
    int woken = byte_lock(presence, F_RDLCK);
    EXPECT_TRUE(newcomer.others_waiting());

    // The woken waiter takes the place 5 ms later: the newcomer queues behind it. (The bound
    // is raised meanwhile: a loaded machine may run the waiter's thread late.)
    test_hooks::set_passing_place_wait(std::chrono::milliseconds(5000));
    int place = -1;
    std::thread takes_place([&] {
        std::this_thread::sleep_for(5ms);
        place = byte_lock(newcomer.slot(), F_WRLCK);
    });
    ASSERT_TRUE(newcomer.join());
    takes_place.join();
    EXPECT_FALSE(newcomer.is_head()) << "the newcomer took the place ahead of the woken waiter";
    ::close(place);  // the waiter leaves: the place passes to the newcomer
    EXPECT_TRUE(newcomer.wait_for_turn(Deadline::after(5), 5000));
    newcomer.leave();

    // It never takes the place: the newcomer does, after a bounded while.
    test_hooks::set_passing_place_wait(std::chrono::milliseconds(20));
    auto started = std::chrono::steady_clock::now();
    ASSERT_TRUE(newcomer.join());
    auto waited = std::chrono::steady_clock::now() - started;
    EXPECT_TRUE(newcomer.is_head());
    EXPECT_GE(waited, 15ms);
    EXPECT_LT(waited, 1s);
    newcomer.leave();
    ::close(woken);
    EXPECT_FALSE(newcomer.others_waiting());
}

// Sets the barging window for one test, and puts Go's 1 ms back after it.
struct BargingWindow {
    explicit BargingWindow(std::chrono::microseconds window) {
        test_hooks::set_barging_window(window);
    }
    ~BargingWindow() { test_hooks::set_barging_window(1ms); }
};

// A headship is fresh for its first window: when the first comer becomes the head at once,
// and again when a head leaves and passes it on (published before the next process runs).
// Freshness is checked with a long window, staleness with a short one once nobody can publish
// any more (the age only grows), so that a slow machine cannot make either check fail.
TEST(LocalQueue, AHeadshipIsFreshForItsFirstWindowOnly) {
    BargingWindow window(10s);
    static int run = 0;  // a slot of its own per run (--gtest_repeat): no earlier headship
    const std::string path = unique_path(("fresh-" + std::to_string(run++)).c_str());
    LocalQueue head(path), probe(path);
    EXPECT_FALSE(probe.head_is_fresh()) << "nobody has been the head of this lock";
    ASSERT_TRUE(head.join());
    EXPECT_TRUE(probe.head_is_fresh());
    EXPECT_EQ(headship_write_error(), 0);
    std::this_thread::sleep_for(60ms);
    test_hooks::set_barging_window(50ms);
    EXPECT_FALSE(probe.head_is_fresh()) << "the head has been the head for longer than the window";
    Pipe events;
    pid_t pid = spawn_waiter(path, events, 'w', 300ms);
    ASSERT_EQ(events.get(5000), 'j');
    test_hooks::set_barging_window(10s);
    head.leave();
    EXPECT_TRUE(probe.head_is_fresh()) << "the leaving head did not pass its headship on";
    EXPECT_EQ(events.get(5000), 'w');
    EXPECT_EQ(wait_child(pid), 0);  // it passed the headship on as it left, and is gone
    std::this_thread::sleep_for(60ms);
    test_hooks::set_barging_window(50ms);
    EXPECT_FALSE(probe.head_is_fresh());
}

// The table has fewer entries than there are slots: a lock whose slot shares an entry with
// another's is not taken for that lock's head.
TEST(LocalQueue, AFreshHeadOfAnotherLockOnTheSameEntryIsNotOurs) {
    BargingWindow window(10s);
    const std::string first = unique_path("entry-0");
    const std::uint64_t entry = LocalQueue(first).slot() % LocalQueue::kHeadshipEntries;
    std::string second;
    for (int i = 1; i < 1000000 && second.empty(); ++i) {
        std::string candidate = unique_path(("entry-" + std::to_string(i)).c_str());
        LocalQueue q(candidate);
        if (q.slot() % LocalQueue::kHeadshipEntries == entry &&
            q.slot() != LocalQueue(first).slot())
            second = candidate;
    }
    ASSERT_FALSE(second.empty());
    LocalQueue head(first), ours(first), theirs(second);
    ASSERT_TRUE(head.join());
    EXPECT_TRUE(ours.head_is_fresh());
    EXPECT_FALSE(theirs.head_is_fresh());
    head.leave();
}

// A full /dev/shm (a container's holds 64 MB) costs the headship table, not the process (a
// mapped table would fault with SIGBUS on a page the tmpfs cannot give). In a child with a
// private mount namespace and a full 16 KB tmpfs on /dev/shm, the queue still works, and no
// headship is known.
TEST(LocalQueue, AFullShmCostsTheTableNotTheProcess) {
    pid_t pid = ::fork();
    if (pid == 0) {
        if (::unshare(CLONE_NEWNS) != 0 ||
            ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
            ::mount("none", "/dev/shm", "tmpfs", 0, "size=16k") != 0)
            ::_exit(77);
        const std::string filler(16 * 1024, 'x');
        int fd = ::open("/dev/shm/filler", O_WRONLY | O_CREAT, 0600);
        while (fd >= 0 && ::write(fd, filler.data(), filler.size()) > 0) {
        }
        test_hooks::set_barging_window(10s);
        const std::string path = unique_path("full-shm");
        LocalQueue head(path), probe(path);
        if (!head.join() || !head.is_head()) ::_exit(2);   // the queue itself works
        if (probe.head_is_fresh()) ::_exit(3);             // no table: no headship is known
        head.leave();                                      // passes the headship on: must not fault
        if (headship_write_error() != ENOSPC) ::_exit(4);  // what php --ri reports
        ::_exit(0);
    }
    const int rc = wait_child(pid);
    if (rc == 77) GTEST_SKIP() << "no private mount namespace here (needs CAP_SYS_ADMIN)";
    EXPECT_EQ(rc, 0) << (rc == 100 + SIGBUS ? "SIGBUS: a write to the table faulted" : "");
}

TEST(LocalQueue, DifferentLocksQueueOnDifferentSlots) {
    LocalQueue a(unique_path("a")), b(unique_path("b"));
    EXPECT_NE(a.slot(), b.slot());
    ASSERT_TRUE(a.join());
    EXPECT_FALSE(b.others_waiting());
}

TEST(LocalQueue, OneFileQueuesOnOneSlotHoweverItsPathIsSpelled) {
    char tmpl[] = "/tmp/nl-queue-spelling-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, link = dir + "-link";
    ASSERT_EQ(::symlink(dir.c_str(), link.c_str()), 0);
    LocalQueue plain(dir + "/x.lock"), via_link(link + "/x.lock"), dotted(dir + "/./x.lock"),
        other(dir + "/y.lock");
    EXPECT_EQ(plain.slot(), via_link.slot());
    EXPECT_EQ(plain.slot(), dotted.slot());
    EXPECT_NE(plain.slot(), other.slot());
    ::unlink(link.c_str());
    ::rmdir(dir.c_str());
}

// A directory's identity is kept for a second per thread (a stat() per new Filelock object
// was a twelfth of the cycle). A directory replaced under its path is noticed after that; the
// slot only orders waiters, so the second costs fairness, never exclusion. Relative paths,
// which move with chdir(), are never kept.
TEST(LocalQueue, ADirectoryReplacedUnderItsPathIsQueuedAsTheNewOneAfterASecond) {
    char tmpl[] = "/tmp/nl-queue-replaced-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, moved = dir + "-old";
    const std::uint64_t before = LocalQueue(dir + "/x.lock").slot();
    ASSERT_EQ(::rename(dir.c_str(), moved.c_str()), 0);
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    const std::uint64_t moved_slot = LocalQueue(moved + "/x.lock").slot();
    EXPECT_EQ(moved_slot, before) << "the moved directory is the same file";
    EXPECT_EQ(LocalQueue(dir + "/x.lock").slot(), before)
        << "the directory's identity was not kept: a stat() per new object";
    std::this_thread::sleep_for(1100ms);
    EXPECT_NE(LocalQueue(dir + "/x.lock").slot(), before)
        << "a directory replaced under its path still queues as the old one after a second";

    char cwd[4096];
    ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
    // Never left in the temporary directories, whatever fails below.
    struct BackTo {
        const char *cwd;
        ~BackTo() { (void)::chdir(cwd); }
    } back_to{cwd};
    std::uint64_t relative_new = 0, relative_old = 1;
    if (::chdir(dir.c_str()) == 0) relative_new = LocalQueue("x.lock").slot();
    if (::chdir(moved.c_str()) == 0) relative_old = LocalQueue("x.lock").slot();
    EXPECT_EQ(::chdir(cwd), 0);
    EXPECT_EQ(relative_new, LocalQueue(dir + "/x.lock").slot());
    EXPECT_EQ(relative_old, before)
        << "a relative path was taken for the directory it named before";
    ::rmdir(dir.c_str());
    ::rmdir(moved.c_str());
}

// The place byte is even and the presence byte the one after it: one probe over both.
TEST(LocalQueue, ThePresenceByteLiesBesideThePlaceByte) {
    LocalQueue queue(unique_path("beside"));
    EXPECT_EQ(queue.slot() % 2, 0u);
    const std::string queue_file = queue_file_of(::geteuid());
    int fd = ::open(queue_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    struct flock presence {};
    presence.l_type = F_RDLCK;
    presence.l_whence = SEEK_SET;
    presence.l_start = static_cast<off_t>(queue.slot() + 1);
    presence.l_len = 1;
    ASSERT_EQ(::fcntl(fd, F_OFD_SETLK, &presence), 0);
    EXPECT_TRUE(queue.others_waiting());
    ::close(fd);
    EXPECT_FALSE(queue.others_waiting());
    // The place byte alone (a head whose presence could not be taken) is seen as well.
    fd = ::open(queue_file.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    struct flock place = presence;
    place.l_type = F_WRLCK;
    place.l_start = static_cast<off_t>(queue.slot());
    ASSERT_EQ(::fcntl(fd, F_OFD_SETLK, &place), 0);
    EXPECT_TRUE(queue.others_waiting());
    ::close(fd);
}

TEST(LocalQueue, WaitersBecomeHeadInArrivalOrder) {
    const std::string path = unique_path("fifo");
    LocalQueue head(path);
    ASSERT_TRUE(head.join());
    ASSERT_TRUE(head.is_head());
    Pipe events;
    std::vector<pid_t> children;
    for (char tag : {'1', '2', '3', '4'}) {
        children.push_back(spawn_waiter(path, events, tag, 20ms));
        ASSERT_EQ(events.get(5000), 'j');
        // join() returns before its thread's request reaches the kernel: let it get there.
        std::this_thread::sleep_for(50ms);
    }
    EXPECT_EQ(events.get(100), 0) << "a waiter became head while the head was in place";
    head.leave();
    std::string order;
    for (int i = 0; i < 4; ++i) order += events.get(5000);
    EXPECT_EQ(order, "1234");
    for (pid_t c : children) EXPECT_EQ(wait_child(c), 0);
}

TEST(LocalQueue, AKilledWaiterLeavesTheQueue) {
    const std::string path = unique_path("killed");
    LocalQueue head(path);
    ASSERT_TRUE(head.join());
    Pipe events;
    pid_t doomed = spawn_waiter(path, events, 'd', 0ms);
    ASSERT_EQ(events.get(5000), 'j');
    std::this_thread::sleep_for(50ms);
    pid_t next = spawn_waiter(path, events, 'n', 0ms);
    ASSERT_EQ(events.get(5000), 'j');
    std::this_thread::sleep_for(50ms);
    ::kill(doomed, SIGKILL);
    EXPECT_EQ(wait_child(doomed), 100 + SIGKILL);
    auto start = std::chrono::steady_clock::now();
    head.leave();
    EXPECT_EQ(events.get(5000), 'n');
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
    EXPECT_EQ(wait_child(next), 0);
}

TEST(LocalQueue, ADeadHeadPassesItsPlaceOn) {
    const std::string path = unique_path("deadhead");
    Pipe events;
    pid_t first = spawn_waiter(path, events, 'f', std::chrono::milliseconds(60000));
    ASSERT_EQ(events.get(5000), 'j');
    ASSERT_EQ(events.get(5000), 'f');  // head at once, then holds its place for a minute
    LocalQueue second(path);
    ASSERT_TRUE(second.join());
    EXPECT_FALSE(second.is_head());
    ::kill(first, SIGKILL);
    EXPECT_TRUE(second.wait_for_turn(Deadline::after(5), 5000));
    EXPECT_EQ(wait_child(first), 100 + SIGKILL);
}

TEST(LocalQueue, WaitingEndsAtTheDeadlineAndTheSliceWithoutThePlace) {
    const std::string path = unique_path("deadline");
    LocalQueue head(path), waiter(path);
    ASSERT_TRUE(head.join());
    ASSERT_TRUE(waiter.join());
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(waiter.wait_for_turn(Deadline::after(0.2), 10000));
    auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_GE(waited, 150ms);
    EXPECT_LT(waited, 3s);
    start = std::chrono::steady_clock::now();
    EXPECT_FALSE(waiter.wait_for_turn(Deadline::never(), 100));
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
    EXPECT_TRUE(waiter.joined());
    // A waiter that leaves before its turn withdraws its request: the head's successor is
    // whoever queued next, and the waiter's thread is gone.
    waiter.leave();
    LocalQueue late(path);
    ASSERT_TRUE(late.join());
    head.leave();
    EXPECT_TRUE(late.wait_for_turn(Deadline::after(5), 5000));
}

void on_alarm(int) {}

TEST(LocalQueue, ASignalEndsTheWaitForTheCallerToLookAtIt) {
    const std::string path = unique_path("signal");
    LocalQueue head(path), waiter(path);
    ASSERT_TRUE(head.join());
    ASSERT_TRUE(waiter.join());
    struct sigaction action {
    }, previous{};
    action.sa_handler = on_alarm;
    action.sa_flags = SA_RESTART;  // as PHP installs its handlers: poll() is interrupted anyway
    ::sigaction(SIGALRM, &action, &previous);
    ::alarm(1);
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(waiter.wait_for_turn(Deadline::after(30), 30000));
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
    ::sigaction(SIGALRM, &previous, nullptr);
}

namespace {
// Threads of this process (/proc/self/task).
int thread_count() {
    int count = 0;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("Threads:", 0) == 0) count = std::atoi(line.c_str() + 8);
    }
    return count;
}

// The thread count once it is `expected`, or after 5 s: a joined thread leaves the count a
// moment after pthread_join() returns (the kernel releases its task later).
int thread_count_settled(int expected) {
    const auto until = std::chrono::steady_clock::now() + 5s;
    int count = thread_count();
    while (count != expected && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(1ms);
        count = thread_count();
    }
    return count;
}

// Queues `waiter` behind `head` (both of this process), lets the head go and expects the turn.
void wait_behind(LocalQueue &head, LocalQueue &waiter) {
    ASSERT_TRUE(head.join());
    ASSERT_TRUE(waiter.join());
    ASSERT_FALSE(waiter.is_head());
    head.leave();
    EXPECT_TRUE(waiter.wait_for_turn(Deadline::after(5), 5000));
    waiter.leave();
}
}  // namespace

// The thread that takes a waiter's place is kept for the next wait instead of being started
// and joined for each: the same threads run during a wait as between waits. A wait given up
// before its turn cancels it (it is blocked in the kernel's queue), and the next starts anew.
TEST(LocalQueue, TheWaitingThreadIsKeptFromWaitToWait) {
    const std::string path = unique_path("kept");
    {
        LocalQueue head(path), waiter(path);
        wait_behind(head, waiter);
    }
    const int kept = thread_count();
    for (int i = 0; i < 5; ++i) {
        LocalQueue head(path), waiter(path);
        ASSERT_TRUE(head.join());
        ASSERT_TRUE(waiter.join());
        EXPECT_EQ(thread_count_settled(kept), kept) << "a thread started for wait " << i;
        head.leave();
        EXPECT_TRUE(waiter.wait_for_turn(Deadline::after(5), 5000));
        waiter.leave();
        EXPECT_EQ(thread_count_settled(kept), kept) << "the thread ended after wait " << i;
    }
    // The head's successor is the next waiter, later waits are still served, and the thread
    // that waited for the quitter is gone.
    LocalQueue head(path), quitter(path), next(path);
    ASSERT_TRUE(head.join());
    ASSERT_TRUE(quitter.join());
    EXPECT_FALSE(quitter.wait_for_turn(Deadline::after(0.05), 1000));
    quitter.leave();
    EXPECT_EQ(thread_count_settled(kept - 1), kept - 1) << "the quitter's request not withdrawn";
    ASSERT_TRUE(next.join());
    head.leave();
    EXPECT_TRUE(next.wait_for_turn(Deadline::after(5), 5000));
    next.leave();
    EXPECT_EQ(thread_count_settled(kept), kept);
    // A waiter that leaves after its thread took the place and said so, before it looked,
    // keeps the thread; the count the thread left does not reach the next wait on its eventfd.
    LocalQueue head2(path), late(path);
    ASSERT_TRUE(head2.join());
    ASSERT_TRUE(late.join());
    head2.leave();
    const auto until = std::chrono::steady_clock::now() + 5s;
    while (!late.place_reported() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(1ms);
    ASSERT_TRUE(late.place_reported());
    late.leave();
    EXPECT_EQ(thread_count_settled(kept), kept);
    LocalQueue head3(path), waiter3(path);
    ASSERT_TRUE(head3.join());
    ASSERT_TRUE(waiter3.join());
    EXPECT_FALSE(waiter3.wait_for_turn(Deadline::after(0.05), 1000)) << "a stale count";
    head3.leave();
    EXPECT_TRUE(waiter3.wait_for_turn(Deadline::after(5), 5000));
    waiter3.leave();
}

// A wait that starts while the kept thread serves another (a signal handler's lock() inside a
// wait) gets a thread of its own; each is served when its own head leaves.
TEST(LocalQueue, AWaitWhileTheKeptThreadIsBusyHasAThreadOfItsOwn) {
    const std::string outer_path = unique_path("busy-outer"),
                      inner_path = unique_path("busy-inner");
    LocalQueue outer_head(outer_path), outer(outer_path);
    LocalQueue inner_head(inner_path), inner(inner_path);
    ASSERT_TRUE(outer_head.join());
    ASSERT_TRUE(outer.join());
    ASSERT_TRUE(inner_head.join());
    ASSERT_TRUE(inner.join());
    EXPECT_FALSE(outer.wait_for_turn(Deadline::after(0.05), 1000));
    EXPECT_FALSE(inner.wait_for_turn(Deadline::after(0.05), 1000));
    inner_head.leave();
    EXPECT_TRUE(inner.wait_for_turn(Deadline::after(5), 5000));
    EXPECT_FALSE(outer.wait_for_turn(Deadline::after(0.05), 1000)) << "served by the other's head";
    outer_head.leave();
    EXPECT_TRUE(outer.wait_for_turn(Deadline::after(5), 5000));
    inner.leave();
    outer.leave();
}

// The kept thread is the parent's: a child forked while it idles, or while it serves the
// parent's wait, waits with a thread of its own (a request written to the parent's eventfd
// would reach the parent's thread, with the child's descriptor numbers), and the parent's
// waits are still served.
TEST(LocalQueue, AForkedChildWaitsWithAThreadOfItsOwn) {
    const std::string parent_path = unique_path("kept-parent"),
                      child_path = unique_path("kept-child");
    for (bool parent_waiting : {false, true}) {
        SCOPED_TRACE(parent_waiting ? "the kept thread busy at fork" : "the kept thread idle");
        {
            LocalQueue head(parent_path), waiter(parent_path);
            wait_behind(head, waiter);  // the kept thread exists and idles
        }
        LocalQueue parent_head(parent_path), parent_waiter(parent_path), child_head(child_path);
        ASSERT_TRUE(parent_head.join());
        if (parent_waiting) ASSERT_TRUE(parent_waiter.join());
        ASSERT_TRUE(child_head.join());
        Pipe events;
        pid_t pid = ::fork();
        if (pid == 0) {
            LocalQueue waiter(child_path);
            if (!waiter.join() || waiter.is_head()) ::_exit(1);
            events.put('j');
            const bool turn = waiter.wait_for_turn(Deadline::after(5), 5000);
            waiter.leave();
            ::_exit(turn ? 0 : 2);
        }
        ASSERT_EQ(events.get(5000), 'j');
        std::this_thread::sleep_for(50ms);  // the child's request reaches the kernel
        child_head.leave();
        EXPECT_EQ(wait_child(pid), 0);
        if (!parent_waiting) ASSERT_TRUE(parent_waiter.join());
        EXPECT_FALSE(parent_waiter.wait_for_turn(Deadline::after(0.05), 1000));
        parent_head.leave();
        EXPECT_TRUE(parent_waiter.wait_for_turn(Deadline::after(5), 5000));
        parent_waiter.leave();
    }
}

TEST(LocalQueue, AForkedChildForgetsItsParentsPlace) {
    const std::string path = unique_path("fork");
    LocalQueue head(path), waiter(path);
    ASSERT_TRUE(head.join());
    ASSERT_TRUE(waiter.join());
    pid_t pid = ::fork();
    if (pid == 0) {
        // The child's copies: neither is in the queue, and leaving (the destructors) must not
        // take the parent's places away.
        bool ok = !head.joined() && !waiter.joined() && !head.is_head() && head.others_waiting();
        ::_exit(ok ? 0 : 1);
    }
    EXPECT_EQ(wait_child(pid), 0);
    EXPECT_TRUE(head.joined());
    EXPECT_TRUE(head.is_head());
    LocalQueue probe(path);
    EXPECT_TRUE(probe.others_waiting());
    head.leave();
    EXPECT_TRUE(waiter.wait_for_turn(Deadline::after(5), 5000));
}

// A place given up is kept open for the next join of this thread; a forked child must open its
// own: through its parent's open file description it would share the parent's place.
TEST(LocalQueue, AChildNeverQueuesThroughItsParentsSpareDescriptor) {
    const std::string path = unique_path("spare");
    {
        LocalQueue first(path);
        ASSERT_TRUE(first.join());
        first.leave();  // its descriptor is now this thread's spare
    }
    Pipe events;
    pid_t pid = ::fork();
    if (pid == 0) {
        LocalQueue child(path);
        if (!child.join() || !child.is_head()) ::_exit(1);
        events.put('h');
        std::this_thread::sleep_for(std::chrono::milliseconds(2000));
        ::_exit(0);
    }
    ASSERT_EQ(events.get(5000), 'h');
    LocalQueue parent(path);  // takes the spare descriptor
    ASSERT_TRUE(parent.join());
    EXPECT_FALSE(parent.is_head()) << "the child's place and ours are one";
    parent.leave();
    EXPECT_EQ(wait_child(pid), 0);
}

namespace {
// `pid` reports 'h' once at the head, then dies there (with a child of its own still running):
// afterwards nobody may be queued on `path`.
void expect_place_gone_with(Pipe &events, pid_t pid, const std::string &path) {
    ASSERT_EQ(events.get(5000), 'h');
    EXPECT_EQ(wait_child(pid), 0);
    LocalQueue probe(path);
    EXPECT_FALSE(probe.others_waiting()) << "the dead process's place lives on in its child";
}
}  // namespace

// The parent side of the same: after a fork, a spare descriptor is shared with the child, and a
// place taken through it would outlive a parent that dies holding it (the child keeps the open
// file description, and its lock, alive). Here a process queues after forking a child that
// keeps running, and dies at the head of the queue: the place must go with it.
TEST(LocalQueue, AParentNeverQueuesThroughADescriptorItsChildShares) {
    const std::string path = unique_path("spare-parent");
    Pipe events;
    pid_t pid = ::fork();
    if (pid == 0) {
        {
            LocalQueue first(path);
            if (!first.join()) ::_exit(1);
            first.leave();  // its descriptor is now this thread's spare
        }
        pid_t child = ::fork();
        if (child == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(3000));
            ::_exit(0);
        }
        LocalQueue again(path);
        if (!again.join() || !again.is_head()) ::_exit(1);
        events.put('h');
        ::_exit(0);  // dies at the head, without leaving
    }
    expect_place_gone_with(events, pid, path);
}

// Threaded PHP: another thread forks while join() holds a descriptor it has not registered yet
// (so the atfork handler cannot close the child's copy). The place is taken again through a
// descriptor of its own: a parent that dies at the head does not leave its place to the child.
TEST(LocalQueue, AForkWhileJoiningDoesNotShareThePlace) {
    const std::string path = unique_path("fork-while-joining");
    Pipe events;
    pid_t pid = ::fork();
    if (pid == 0) {
        static bool forked = false;
        test_hooks::set_before_register([] {
            if (forked) return;
            forked = true;
            if (::fork() == 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(3000));
                ::_exit(0);
            }
        });
        LocalQueue queue(path);
        const bool head = queue.join() && queue.is_head();
        test_hooks::set_before_register(nullptr);
        if (!head) ::_exit(1);
        events.put('h');
        ::_exit(0);  // dies at the head, without leaving
    }
    expect_place_gone_with(events, pid, path);
}

class FileLockQueueTest : public ::testing::Test {
  protected:
    void SetUp() override {
        char tmpl[] = "/tmp/nl-core-queue-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        path_ = lock_file_path(dir_ + "/", "queued lock");
    }
    void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

    static std::string record() { return test_support::own_record("queued lock"); }

    // A child that reports 'j', waits for the lock, reports 'w' once it holds it ('x' if it
    // could not), holds it 100 ms and releases it.
    pid_t spawn_lock_waiter(Pipe &events) {
        pid_t pid = ::fork();
        if (pid == 0) {
            LockFile waiter(path_);
            events.put('j');
            WaitResult r = waiter.acquire(record(), Deadline::after(20), nullptr);
            events.put(r.status == Status::Acquired ? 'w' : 'x');
            std::this_thread::sleep_for(100ms);
            waiter.release();
            ::_exit(0);
        }
        return pid;
    }

    std::string dir_, path_;
};

// The barging that starved waiters: a holder that releases and asks again at once must queue
// behind the process already waiting, not take the lock back before the waiter wakes.
TEST_F(FileLockQueueTest, ARelockingHolderQueuesBehindTheWaiter) {
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    Pipe events;
    pid_t pid = spawn_lock_waiter(events);
    ASSERT_EQ(events.get(5000), 'j');
    std::this_thread::sleep_for(200ms);  // the waiter is queued, watching the lock file
    ASSERT_TRUE(holder.release());
    WaitResult again = holder.acquire(record(), Deadline::after(20), nullptr);
    ASSERT_EQ(again.status, Status::Acquired);
    // By the time we hold it again, the waiter has had it.
    EXPECT_EQ(events.get(0), 'w');
    holder.release();
    EXPECT_EQ(wait_child(pid), 0);
}

TEST_F(FileLockQueueTest, AnInterruptedWaitKeepsItsPlaceUntilAbandoned) {
    LockFile holder(path_), waiter(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    int calls = 0;
    WaitResult r = waiter.acquire(record(), Deadline::after(5), [&] { return ++calls >= 1; });
    EXPECT_TRUE(r.interrupted);
    LocalQueue probe(path_);
    EXPECT_TRUE(probe.others_waiting()) << "the interrupted waiter gave its place up";
    waiter.abandon_wait();
    EXPECT_FALSE(probe.others_waiting());
    holder.release();
}

// A waiter behind the head, resumed with an interrupt due every time (signals that come faster
// than PHP's handlers return), still ends at its deadline, and gives its place up then.
TEST_F(FileLockQueueTest, AWaitResumedWithAnInterruptDueStillEndsAtItsDeadline) {
    LockFile holder(path_), waiter(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    LocalQueue head(path_);
    ASSERT_TRUE(head.join());  // the waiter queues behind it, never the head
    const auto deadline = Deadline::after(0.3);
    const auto started = std::chrono::steady_clock::now();
    WaitResult r{Status::AlreadyLocked, true};
    while (r.interrupted && std::chrono::steady_clock::now() - started < 5s)
        r = waiter.acquire(record(), deadline, [] { return true; });
    EXPECT_FALSE(r.interrupted);
    EXPECT_EQ(r.status, Status::AlreadyLocked);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 3s);
    head.leave();
    LocalQueue probe(path_);
    EXPECT_FALSE(probe.others_waiting()) << "the wait that timed out kept its place";
    holder.release();
}

// A head that keeps its place without using it (stopped, say) while the lock is free: the
// waiter behind it takes the lock after a slice, not never.
TEST_F(FileLockQueueTest, AStuckHeadCostsAWaiterASliceNotItsLock) {
    LocalQueue stuck(path_);
    ASSERT_TRUE(stuck.join());
    std::this_thread::sleep_for(20ms);  // past the headship's first window (1 ms)
    LockFile waiter(path_);
    auto start = std::chrono::steady_clock::now();
    WaitResult r = waiter.acquire(record(), Deadline::after(20), nullptr);
    auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(r.status, Status::Acquired);
    EXPECT_GE(waited, 400ms);  // it did not barge past the head at once
    EXPECT_LT(waited, 5s);
    waiter.release();
}

// While the head is fresh (the first window of its headship), a newcomer takes a free lock
// rather than leave it idle until the head runs; so does the holder that asks again.
TEST_F(FileLockQueueTest, ANewcomerTakesAFreeLockWhileTheHeadIsFresh) {
    BargingWindow window(10s);
    LocalQueue head(path_);
    ASSERT_TRUE(head.join());
    LockFile newcomer(path_);
    auto start = std::chrono::steady_clock::now();
    WaitResult r = newcomer.acquire(record(), Deadline::after(20), nullptr);
    EXPECT_EQ(r.status, Status::Acquired);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 400ms) << "it waited behind the head";
    ASSERT_TRUE(newcomer.release());
    r = newcomer.acquire(record(), Deadline::after(20), nullptr);
    EXPECT_EQ(r.status, Status::Acquired);
    newcomer.release();
    LocalQueue probe(path_);
    head.leave();
    EXPECT_FALSE(probe.others_waiting()) << "the newcomer left a place behind";
}

// A fresh head does not let a newcomer past a held lock: the newcomer queues behind the head
// and gets the lock after it.
TEST_F(FileLockQueueTest, AFreshHeadStillGoesBeforeANewcomerWhenTheLockIsHeld) {
    BargingWindow window(10s);
    LockFile holder(path_);
    ASSERT_EQ(holder.try_acquire(record()), Status::Acquired);
    Pipe events;
    pid_t pid = spawn_lock_waiter(events);
    ASSERT_EQ(events.get(5000), 'j');
    LocalQueue probe(path_);
    for (int i = 0; i < 500 && !probe.others_waiting(); ++i) std::this_thread::sleep_for(10ms);
    ASSERT_TRUE(probe.head_is_fresh());
    std::thread newcomer([&] {
        LockFile lock(path_);
        WaitResult r = lock.acquire(record(), Deadline::after(20), nullptr);
        events.put(r.status == Status::Acquired ? 'n' : 'x');
        lock.release();
    });
    // Released only once the newcomer is blocked behind the child (the kernel lists it).
    for (int i = 0; i < 1000 && blocked_behind(probe.slot()) < 1; ++i)
        std::this_thread::sleep_for(10ms);
    // EXPECT, not ASSERT: the newcomer's thread must be joined whatever happens.
    EXPECT_EQ(blocked_behind(probe.slot()), 1);
    EXPECT_TRUE(holder.release());
    EXPECT_EQ(events.get(5000), 'w');
    EXPECT_EQ(events.get(5000), 'n');
    newcomer.join();
    EXPECT_EQ(wait_child(pid), 0);
}

// A head promoted while the lock is held waits without a first attempt; it still finds out
// when the holder dies, and breaks the lock.
TEST_F(FileLockQueueTest, APromotedHeadStillBreaksADeadHolder) {
    Pipe events;
    pid_t holder = ::fork();
    if (holder == 0) {
        LockFile lock(path_);
        if (lock.try_acquire(record()) != Status::Acquired) ::_exit(1);
        events.put('h');
        ::pause();
        ::_exit(0);
    }
    ASSERT_EQ(events.get(5000), 'h');
    auto ahead = std::make_unique<LocalQueue>(path_);
    ASSERT_TRUE(ahead->join());
    std::thread director([&] {
        std::this_thread::sleep_for(200ms);
        ahead->leave();  // our waiter becomes the head, the lock still held
        std::this_thread::sleep_for(200ms);
        ::kill(holder, SIGKILL);
    });
    LockFile waiter(path_);
    auto start = std::chrono::steady_clock::now();
    WaitResult r = waiter.acquire(record(), Deadline::after(20), nullptr);
    EXPECT_EQ(r.status, Status::Acquired);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
    director.join();
    EXPECT_EQ(wait_child(holder), 100 + SIGKILL);
    waiter.release();
}

TEST_F(FileLockQueueTest, ZeroTimeoutStillTriesOnceWithWaitersQueued) {
    LockFile trier(path_);
    LocalQueue someone(path_);
    ASSERT_TRUE(someone.join());  // a queue with a head, and the lock free
    WaitResult r = trier.acquire(record(), Deadline::after(0), nullptr);
    EXPECT_EQ(r.status, Status::Acquired);
    trier.release();
    LocalQueue probe(path_);
    someone.leave();
    EXPECT_FALSE(probe.others_waiting()) << "the trier left a place behind";
}

}  // namespace
