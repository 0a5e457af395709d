// Waiting without inotify: the fallback to polling is visible, and the instance is given back.
#include <gtest/gtest.h>

#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/release_waiter.hpp"
#include "own_record.hpp"

using namespace nativelock;
using namespace nativelock::file;

namespace {

class ReleaseWaiterTest : public ::testing::Test {
  protected:
    void SetUp() override {
        char tmpl[] = "/tmp/nl-core-waiter-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        path_ = lock_file_path(dir_ + "/", "watched lock");
    }
    void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

    std::string dir_, path_;
};

TEST_F(ReleaseWaiterTest, AWaitingHeadOpensOneInstanceAndGivesItBack) {
    // In a child: the counters are per process.
    pid_t pid = ::fork();
    if (pid == 0) {
        LockFile holder(path_), waiter(path_);
        const std::string record = test_support::own_record("watched lock");
        bool ok = holder.try_acquire(record) == Status::Acquired;
        ok = ok && !inotify_status().open && inotify_status().opened == 0;
        ok = ok &&
             waiter.acquire(record, Deadline::after(0.1), nullptr).status == Status::AlreadyLocked;
        InotifyStatus during = inotify_status();
        ok = ok && during.open && during.opened == 1 && during.polled_waits == 0;
        give_back_inotify();
        InotifyStatus after = inotify_status();
        ok = ok && !after.open && after.given_back == 1;
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// At request end the instance is given back only once no wait has used it for the given time:
// a worker under a hot lock keeps it from request to request (closing one takes milliseconds).
TEST_F(ReleaseWaiterTest, AnInstanceInUseIsKeptAndOneUnusedForTheGivenTimeIsGivenBack) {
    pid_t pid = ::fork();
    if (pid == 0) {
        LockFile holder(path_), waiter(path_);
        const std::string record = test_support::own_record("watched lock");
        bool ok = holder.try_acquire(record) == Status::Acquired;
        // A wait longer than the idle time counts as use until it ends.
        ok = ok &&
             waiter.acquire(record, Deadline::after(0.4), nullptr).status == Status::AlreadyLocked;
        ok = ok && inotify_status().watches == 1;
        give_back_inotify(std::chrono::milliseconds(300));
        // Kept, without its watch (events must not pile up while the worker idles).
        ok = ok && inotify_status().open && inotify_status().given_back == 0 &&
             inotify_status().watches == 0;
        ok = ok &&
             waiter.acquire(record, Deadline::after(0.05), nullptr).status == Status::AlreadyLocked;
        ok = ok && inotify_status().opened == 1 && inotify_status().watches == 1;
        ::usleep(400 * 1000);
        give_back_inotify(std::chrono::milliseconds(300));
        ok = ok && !inotify_status().open && inotify_status().given_back == 1;
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// With every inotify instance of the user taken (fs.inotify.max_user_instances), a wait polls,
// says so once, and still gets the lock when it is released; once instances are free again,
// the next wait after give_back_inotify() uses one. The limit is per user: the child takes the
// instances as an otherwise unused uid, so no other process of ours loses inotify meanwhile.
TEST_F(ReleaseWaiterTest, WithoutInotifyAWaitPollsAndSaysSoOnce) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root, to take the instances as another uid";
    constexpr uid_t kSpareUid = 65534;  // nobody
    ::chmod(dir_.c_str(), 0777);
    pid_t pid = ::fork();
    if (pid == 0) {
        // Instances run out before descriptors do, or the test proves nothing.
        struct rlimit files;
        ::getrlimit(RLIMIT_NOFILE, &files);
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
        long instances = 0;
        if (FILE *f = std::fopen("/proc/sys/fs/inotify/max_user_instances", "r")) {
            if (std::fscanf(f, "%ld", &instances) != 1) instances = 0;
            std::fclose(f);
        }
        if (instances <= 0 || static_cast<rlim_t>(instances) + 64 > files.rlim_cur) ::_exit(3);
        if (::setgid(kSpareUid) != 0 || ::setuid(kSpareUid) != 0) ::_exit(4);
        std::vector<int> taken;
        int error = 0;
        while (taken.size() < static_cast<std::size_t>(instances) + 1) {
            int fd = ::inotify_init1(IN_CLOEXEC);
            if (fd < 0) {
                error = errno;
                break;
            }
            taken.push_back(fd);
        }
        LockFile holder(path_), waiter(path_);
        const std::string record = test_support::own_record("watched lock");
        bool ok = error == EMFILE && holder.try_acquire(record) == Status::Acquired;
        ok = ok &&
             waiter.acquire(record, Deadline::after(0.2), nullptr).status == Status::AlreadyLocked;
        InotifyStatus polled = inotify_status();
        ok = ok && !polled.open && polled.last_error == EMFILE && polled.polled_waits == 1;
        ok = ok && take_inotify_failure() == EMFILE && take_inotify_failure() == 0;
        // Released while we wait: with no instance to tell us, the poll finds it.
        std::thread releaser([&holder] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            holder.release();
        });
        ok = ok && waiter.acquire(record, Deadline::after(5), nullptr).status == Status::Acquired;
        releaser.join();
        waiter.release();
        for (int fd : taken) ::close(fd);
        give_back_inotify();
        ok = ok && holder.try_acquire(record) == Status::Acquired;
        ok = ok &&
             waiter.acquire(record, Deadline::after(0.1), nullptr).status == Status::AlreadyLocked;
        InotifyStatus recovered = inotify_status();
        ok = ok && recovered.open && recovered.last_error == 0;
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_NE(WEXITSTATUS(status), 3)
        << "fs.inotify.max_user_instances is above the open-file limit";
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
