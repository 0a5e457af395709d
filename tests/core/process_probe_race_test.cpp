// Probing processes that exit and are reaped while they are probed: reading
// /proc/<pid>/stat of a process reaped meanwhile fails with ESRCH, which must never surface as
// an exception (it did, through libstdc++'s filebuf, and made Filelock::lock() throw when a
// holder died at that moment).
#include <gtest/gtest.h>

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
            });
        }
        reaper.join();
        EXPECT_FALSE(process::exists(pid));
    }
}
