// The buffered CSPRNG behind lock tokens (common/random): bytes are handed out once, per
// thread, and never across fork().
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/random.hpp"

using namespace nativelock;

namespace {

std::vector<std::string> tokens(int n) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) out.push_back(random::base64_token(15));
    return out;
}

// Reads the whole pipe.
std::string drain(int fd) {
    std::string all;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) all.append(buf, static_cast<std::size_t>(n));
    return all;
}

}  // namespace

TEST(Random, TokensHaveTheOriginalsFormatAndDoNotRepeat) {
    std::set<std::string> seen;
    // Several refills of the buffer.
    for (const std::string &t : tokens(10 * static_cast<int>(random::kBufferBytes / 15))) {
        EXPECT_EQ(t.size(), 20u);
        EXPECT_EQ(
            t.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
            std::string::npos);
        EXPECT_TRUE(seen.insert(t).second) << t;
    }
    EXPECT_EQ(random::hex_token(16).size(), 32u);
    EXPECT_EQ(random::hex_token(100).size(), 200u);  // larger than the stack buffer
    EXPECT_NE(random::hex_token(12), random::hex_token(12));
    EXPECT_LE(random::mt_rand_like(), 0x7fffffffu);
}

TEST(Random, LargeRequestsAreServedToo) {
    std::vector<unsigned char> a(random::kBufferBytes * 3), b(random::kBufferBytes * 3);
    random::fill(a.data(), a.size());
    random::fill(b.data(), b.size());
    EXPECT_NE(a, b);
}

// The child of a fork() must not hand out the bytes its parent had buffered: without the
// check, the child's next tokens would be exactly the parent's next tokens (the buffer is
// copied with the process). Tried right after a refill and in the middle of a buffer.
TEST(Random, ForkedChildNeverReusesTheParentsBufferedBytes) {
    for (int drawn_before_fork : {1, static_cast<int>(random::kBufferBytes / 15 / 2)}) {
        tokens(drawn_before_fork);  // the buffer now holds unused bytes
        int fds[2];
        ASSERT_EQ(pipe(fds), 0);
        pid_t pid = fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            close(fds[0]);
            std::string all;
            for (const std::string &t : tokens(40)) all += t + "\n";
            ssize_t w = write(fds[1], all.data(), all.size());
            _exit(w == static_cast<ssize_t>(all.size()) ? 0 : 1);
        }
        close(fds[1]);
        std::vector<std::string> parent = tokens(40);
        std::string child_out = drain(fds[0]);
        close(fds[0]);
        int status = 0;
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        std::set<std::string> child;
        std::size_t start = 0, nl;
        while ((nl = child_out.find('\n', start)) != std::string::npos) {
            child.insert(child_out.substr(start, nl - start));
            start = nl + 1;
        }
        ASSERT_EQ(child.size(), 40u);
        for (const std::string &t : parent) EXPECT_EQ(child.count(t), 0u) << t;
    }
}

// A grandchild too: the child that forks it never drew a byte itself.
TEST(Random, GrandchildOfAProcessThatDrewNothingGetsFreshBytes) {
    tokens(1);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        pid_t grandchild = fork();
        if (grandchild == 0) {
            std::string t = random::base64_token(15) + "\n";
            _exit(write(fds[1], t.data(), t.size()) == static_cast<ssize_t>(t.size()) ? 0 : 1);
        }
        int status = 0;
        waitpid(grandchild, &status, 0);
        std::string t = random::base64_token(15) + "\n";
        ssize_t w = write(fds[1], t.data(), t.size());
        _exit(WIFEXITED(status) && WEXITSTATUS(status) == 0 && w > 0 ? 0 : 1);
    }
    close(fds[1]);
    std::string parent = random::base64_token(15);
    std::string out = drain(fds[0]);
    close(fds[0]);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_EQ(out.size(), 42u);
    std::string grandchild = out.substr(0, 20), child = out.substr(21, 20);
    EXPECT_NE(grandchild, parent);
    EXPECT_NE(child, parent);
    EXPECT_NE(grandchild, child);
}

// Each thread has a buffer of its own (ZTS): no two threads hand out the same bytes.
TEST(Random, ThreadsDrawDistinctTokens) {
    constexpr int kThreads = 4, kEach = 500;
    std::vector<std::vector<std::string>> drawn(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
        threads.emplace_back([&drawn, i] { drawn[i] = tokens(kEach); });
    for (auto &t : threads) t.join();
    std::set<std::string> all;
    for (const auto &v : drawn) all.insert(v.begin(), v.end());
    EXPECT_EQ(all.size(), static_cast<std::size_t>(kThreads * kEach));
}
