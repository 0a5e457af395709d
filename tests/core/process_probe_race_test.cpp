// Probing processes that exit and are reaped while they are probed: reading
// /proc/<pid>/stat of a process reaped meanwhile fails with ESRCH, which must never surface as
// an exception (it did, through libstdc++'s filebuf, and made Filelock::lock() throw when a
// holder died at that moment).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
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
