// Probing processes that exit and are reaped while they are probed: reading
// /proc/<pid>/stat of a process reaped meanwhile fails with ESRCH, which must never surface as
// an exception (it did, through libstdc++'s filebuf, and made Filelock::lock() throw when a
// holder died at that moment).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

#include "common/process.hpp"

using namespace nativelock;

TEST(ProcessProbeRace, ProbingProcessesReapedMeanwhileNeverThrows) {
    for (int i = 0; i < 500; ++i) {
        pid_t pid = fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) _exit(0);
        std::atomic<bool> reaped{false};
        std::thread reaper([&] {
            waitpid(pid, nullptr, 0);
            reaped = true;
        });
        while (!reaped) {
            EXPECT_NO_THROW({
                process::exists(pid);
                process::start_ticks(pid);
                process::look(pid);
            });
        }
        reaper.join();
        EXPECT_FALSE(process::exists(pid));
        EXPECT_FALSE(process::look(pid).exists);
    }
}

// look() answers what exists() and start_ticks() answer, from one reading of /proc.
TEST(ProcessLook, ALiveProcessExistsWithItsStartTime) {
    const process::Liveness self = process::look(getpid());
    EXPECT_TRUE(self.exists);
    ASSERT_TRUE(self.start_ticks.has_value());
    EXPECT_EQ(self.start_ticks, process::start_ticks(getpid()));
}

TEST(ProcessLook, AZombieDoesNotExist) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(0);
    // Not reaped: a zombie until waitpid(). Its state shows once it has exited.
    siginfo_t info{};
    const int exited = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT);
    const int signalled = kill(pid, 0);
    const bool looked = process::look(pid).exists;
    const bool existed = process::exists(pid);
    waitpid(pid, nullptr, 0);
    ASSERT_EQ(exited, 0);
    EXPECT_EQ(signalled, 0);  // the pid is still taken
    EXPECT_FALSE(looked);
    EXPECT_FALSE(existed);
}

TEST(ProcessLook, NoProcessForAnInvalidPid) {
    EXPECT_FALSE(process::look(0).exists);
    EXPECT_FALSE(process::look(-1).exists);
}

// A process in a time namespace of its own (unshare -T, a container restored by CRIU) sees
// every start time and btime shifted by its namespace's boot-time offset. Both are taken back
// to one clock, so the start time a holder records is the one any other process reads for it
// (to within a tick), and a running holder is never judged dead for it.
namespace {
// Runs a process in a new time namespace with these boot-time offsets; false if there are none.
bool start_times_agree_across(const std::string &offsets) {
    int to_parent[2];
    if (pipe(to_parent) != 0) {
        ADD_FAILURE() << "pipe()";
        return true;
    }
    const pid_t middle = fork();
    if (middle < 0) {
        ADD_FAILURE() << "fork()";
        return true;
    }
    if (middle == 0) {
        // unshare(CLONE_NEWTIME) places the children made after it in the new namespace; the
        // offsets can be set until the first one is made.
        long long report[3] = {-1, 0, 0};  // -1: no time namespaces here
        if (unshare(0x00000080 /* CLONE_NEWTIME */) == 0) {
            const int fd = open("/proc/self/timens_offsets", O_WRONLY);
            if (fd >= 0 && write(fd, offsets.data(), offsets.size()) > 0) {
                int from_inner[2];
                if (pipe(from_inner) == 0) {
                    const pid_t inner = fork();
                    if (inner == 0) {
                        long long seen[2] = {
                            static_cast<long long>(process::start_ticks(getpid()).value_or(0)),
                            process::boot_time().value_or(0)};
                        (void)!write(from_inner[1], seen, sizeof seen);
                        pause();
                        _exit(0);
                    }
                    long long seen[2] = {0, 0};
                    if (inner > 0 && read(from_inner[0], seen, sizeof seen) == sizeof seen) {
                        report[0] = inner;
                        report[1] = seen[0];
                        report[2] = seen[1];
                    }
                }
            }
        }
        (void)!write(to_parent[1], report, sizeof report);
        pause();  // until the test ends it, with the inner child still running
        _exit(0);
    }
    close(to_parent[1]);
    long long report[3] = {-1, 0, 0};
    const bool got = read(to_parent[0], report, sizeof report) == sizeof report;
    std::optional<std::uint64_t> outside;
    if (got && report[0] > 0) outside = process::start_ticks(static_cast<pid_t>(report[0]));
    const auto our_boot = process::boot_time();
    if (got && report[0] > 0) kill(static_cast<pid_t>(report[0]), SIGKILL);
    kill(middle, SIGKILL);
    waitpid(middle, nullptr, 0);
    close(to_parent[0]);
    EXPECT_TRUE(got);
    if (!got || report[0] <= 0) return false;
    EXPECT_TRUE(outside.has_value()) << offsets;
    if (!outside) return true;
    const long long inside = report[1];
    EXPECT_LE(std::llabs(static_cast<long long>(*outside) - inside), 1)
        << offsets << ": outside " << *outside << ", inside " << inside;
    EXPECT_TRUE(our_boot.has_value());
    if (our_boot) EXPECT_LE(std::llabs(*our_boot - report[2]), 1) << offsets;
    return true;
}
}  // namespace

TEST(ProcessLook, StartTimesAgreeAcrossTimeNamespaces) {
    // Whole seconds ahead, and a few milliseconds behind (not a whole number of ticks: the
    // kernel's rounding and ours must still meet within one).
    for (const char *offsets : {"boottime 100000 0", "boottime -1 994000000"}) {
        if (!start_times_agree_across(offsets))
            GTEST_SKIP() << "no time namespaces (kernel < 5.6, or not permitted)";
    }
}
