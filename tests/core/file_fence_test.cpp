// Fencing counter files: reading, advancing (temp + fsync + rename), refusal of anything that is
// not a counter, and LockFile's token while held, across forked holders.
#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "file/fence.hpp"
#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "own_record.hpp"

using namespace nativelock;
using namespace nativelock::file;

namespace {

class FileFenceTest : public ::testing::Test {
  protected:
    void SetUp() override {
        char tmpl[] = "/tmp/nl-fence-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = std::string(tmpl) + "/";
        path_ = lock_file_path(dir_, "fenced lock");
        counter_ = fence_path(path_);
    }
    void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

    void write(const std::string &path, const std::string &text) {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
    }
    std::string slurp(const std::string &path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
    std::vector<std::string> entries() {
        std::vector<std::string> names;
        DIR *d = opendir(dir_.c_str());
        while (dirent *e = readdir(d)) {
            std::string n = e->d_name;
            if (n != "." && n != "..") names.push_back(n);
        }
        closedir(d);
        return names;
    }

    std::string dir_, path_, counter_;
};

}  // namespace

TEST_F(FileFenceTest, CounterLivesBesideTheLockFileAndNeverLooksLikeALock) {
    EXPECT_EQ(counter_, dir_ + "fenced_lock.lock.fence");
    EXPECT_NE(counter_.substr(counter_.size() - 5), ".lock");
}

TEST_F(FileFenceTest, AdvancesFromZeroAndLeavesOnlyTheCounter) {
    EXPECT_EQ(read_fence(counter_), 0);
    EXPECT_EQ(advance_fence(counter_), 1);
    EXPECT_EQ(advance_fence(counter_), 2);
    EXPECT_EQ(advance_fence(counter_), 3);
    EXPECT_EQ(slurp(counter_), "3\n");
    EXPECT_EQ(read_fence(counter_), 3);
    EXPECT_EQ(entries(), std::vector<std::string>{"fenced_lock.lock.fence"});  // no temp left
}

TEST_F(FileFenceTest, ContinuesFromAnExistingValue) {
    write(counter_, "9223372036854775806\n");
    EXPECT_EQ(advance_fence(counter_), 9223372036854775807LL);
    EXPECT_THROW(advance_fence(counter_), ProtocolError);  // exhausted, never wrapped
    EXPECT_EQ(read_fence(counter_), 9223372036854775807LL);
}

TEST_F(FileFenceTest, AnythingButACounterIsRefusedNeverReset) {
    for (const char *bad :
         {"", "\n", "12", "12\n\n", "x1\n", "-1\n", "1 2\n", "99999999999999999999\n"}) {
        write(counter_, bad);
        EXPECT_THROW(read_fence(counter_), ProtocolError) << '"' << bad << '"';
        EXPECT_THROW(advance_fence(counter_), ProtocolError) << '"' << bad << '"';
        EXPECT_EQ(slurp(counter_), bad);  // left as found
    }
    ::unlink(counter_.c_str());
    ASSERT_EQ(::mkdir(counter_.c_str(), 0700), 0);
    EXPECT_THROW(advance_fence(counter_), Error);
    ::rmdir(counter_.c_str());
}

TEST_F(FileFenceTest, ASymlinkAtTheCounterIsNotFollowed) {
    const std::string target = dir_ + "elsewhere";
    write(target, "41\n");
    ASSERT_EQ(::symlink(target.c_str(), counter_.c_str()), 0);
    EXPECT_THROW(read_fence(counter_), SystemError);
    EXPECT_THROW(advance_fence(counter_), SystemError);
    EXPECT_EQ(slurp(target), "41\n");
}

TEST_F(FileFenceTest, UnwritableDirectoryKeepsTheOldValue) {
    EXPECT_EQ(advance_fence(counter_), 1);
    // Root writes anywhere (CI runs as root): the refused write is tried as nobody in a child.
    const bool as_root = ::geteuid() == 0;
    if (as_root) {
        ASSERT_EQ(::chown(dir_.c_str(), 65534, 65534), 0);
        ASSERT_EQ(::chown(counter_.c_str(), 65534, 65534), 0);
    }
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (as_root && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(2);
        if (::chmod(dir_.c_str(), 0500) != 0) ::_exit(3);
        int code = 4;
        try {
            advance_fence(counter_);
        } catch (const SystemError &) {
            code = 0;
        } catch (...) {
            code = 5;
        }
        ::chmod(dir_.c_str(), 0700);
        ::_exit(code);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: setuid, 3: chmod, 4: no error, 5: other error";
    EXPECT_EQ(read_fence(counter_), 1);
}

TEST_F(FileFenceTest, LockFileDrawsATokenOnlyWhileHeldAndForgetsItOnRelease) {
    LockFile lock(path_);
    EXPECT_THROW(lock.draw_fence(), ProtocolError);
    EXPECT_EQ(read_fence(counter_), 0);
    ASSERT_EQ(lock.try_acquire(test_support::own_record("fenced lock")), Status::Acquired);
    EXPECT_EQ(lock.fence(), 0);
    EXPECT_EQ(lock.draw_fence(), 1);
    EXPECT_EQ(lock.fence(), 1);
    EXPECT_TRUE(lock.release());
    EXPECT_EQ(lock.fence(), 0);
    ASSERT_EQ(lock.try_acquire(test_support::own_record("fenced lock")), Status::Acquired);
    EXPECT_EQ(lock.draw_fence(), 2);
    lock.force_release();
    EXPECT_EQ(lock.fence(), 0);
}

// A holder whose lock was broken and re-taken (another inode at the path) draws no token: the new
// holder's draw could equal it.
TEST_F(FileFenceTest, HolderWhoseLockWasReplacedDrawsNoToken) {
    LockFile lock(path_);
    ASSERT_EQ(lock.try_acquire(test_support::own_record("fenced lock")), Status::Acquired);
    ASSERT_EQ(::unlink(path_.c_str()), 0);
    write(path_, test_support::own_record("fenced lock"));
    EXPECT_THROW(lock.draw_fence(), ProtocolError);
    EXPECT_EQ(lock.fence(), 0);
    EXPECT_FALSE(lock.release());  // not ours: the other holder's file stays
    EXPECT_EQ(::access(path_.c_str(), F_OK), 0);
}

// Forked holders, one after the other through the lock, some killed while holding: every token
// handed out is unique and they increase in the order the holders held the lock.
TEST_F(FileFenceTest, TokensIncreaseAcrossProcessesAndKilledHolders) {
    const std::string log = dir_ + "log";
    constexpr int kProcs = 4, kRounds = 50;
    std::vector<pid_t> pids;
    for (int p = 0; p < kProcs; ++p) {
        pid_t pid = fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            LockFile lock(path_);
            for (int i = 0; i < kRounds; ++i) {
                auto r = lock.acquire(test_support::own_record("fenced lock"), Deadline::after(30),
                                      nullptr);
                if (r.status != Status::Acquired) _exit(2);
                long long t = lock.draw_fence();
                // Appended while holding: the log's order is the holding order.
                FILE *f = fopen(log.c_str(), "a");
                fprintf(f, "%lld\n", t);
                fclose(f);
                if (p == 0 && i == kRounds / 2) ::raise(SIGKILL);  // dies holding
                lock.release();
            }
            _exit(0);
        }
        pids.push_back(pid);
    }
    for (pid_t pid : pids) {
        int status = 0;
        waitpid(pid, &status, 0);
    }
    std::ifstream in(log);
    long long prev = 0, t = 0, n = 0;
    while (in >> t) {
        EXPECT_GT(t, prev) << "line " << n;
        prev = t;
        ++n;
    }
    EXPECT_EQ(n, kRounds / 2 + 1 + (kProcs - 1) * kRounds);
    EXPECT_EQ(read_fence(counter_), prev);
}
