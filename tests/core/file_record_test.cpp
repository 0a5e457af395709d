#include <gtest/gtest.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "common/process.hpp"
#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/record.hpp"

using namespace nativelock::file;

TEST(FileRecord, EncodesAsPhpSerializedArrayWithOriginalKeysFirst) {
    OwnerRecord r;
    r.pid = 42;
    r.timestamp = "01-02-2026 03:04:05";
    r.name = "n";
    r.host = "h";
    r.boot_id = "b";
    r.pid_namespace = "pid:[1]";
    r.start_ticks = 99;
    r.token = "t";
    r.machine_id = "m";
    EXPECT_EQ(encode(r),
              "a:9:{s:5:\"mypid\";i:42;s:9:\"timestamp\";s:19:\"01-02-2026 03:04:05\";"
              "s:4:\"name\";s:1:\"n\";s:4:\"host\";s:1:\"h\";s:7:\"boot_id\";s:1:\"b\";"
              "s:5:\"pidns\";s:7:\"pid:[1]\";s:10:\"start_time\";i:99;s:5:\"token\";s:1:\"t\";"
              "s:10:\"machine_id\";s:1:\"m\";}");
}

TEST(FileRecord, RoundTrips) {
    OwnerRecord r;
    r.pid = 123456;
    r.timestamp = "21-11-2026 05:00:00";
    r.name = std::string("we\"ird;}\0name", 13);
    r.host = "web-1";
    r.boot_id = "fdb3f04e-7e37-454f-9e19-7747f747db60";
    r.pid_namespace = "pid:[4026531836]";
    r.start_ticks = 30521;
    r.token = "abc";
    r.machine_id = "0123456789abcdef0123456789abcdef";
    auto back = decode(encode(r));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->pid, r.pid);
    EXPECT_EQ(back->name, r.name);
    EXPECT_EQ(back->host, r.host);
    EXPECT_EQ(back->boot_id, r.boot_id);
    EXPECT_EQ(back->pid_namespace, r.pid_namespace);
    EXPECT_EQ(back->start_ticks, r.start_ticks);
    EXPECT_EQ(back->token, r.token);
    EXPECT_EQ(back->machine_id, r.machine_id);
    EXPECT_TRUE(back->has_identity());
}

// The process's own record is encode() of its identity, the name, the timestamp and a fresh
// 16-byte hex token, byte for byte; a forked child's carries the child's pid.
TEST(FileRecord, OwnRecordIsTheEncodedIdentityWithAFreshToken) {
    const std::string name("we\"ird;}\0name", 13);
    const std::string first = encode_own(name, "21-11-2026 05:00:00");
    auto decoded = decode(first);
    ASSERT_TRUE(decoded);
    const auto &self = nativelock::process::self();
    OwnerRecord expected;
    expected.pid = self.pid;
    expected.timestamp = "21-11-2026 05:00:00";
    expected.name = name;
    expected.host = self.host;
    expected.boot_id = self.boot_id;
    expected.machine_id = self.machine_id;
    expected.pid_namespace = self.pid_namespace;
    expected.start_ticks = self.start_ticks;
    expected.token = decoded->token;
    EXPECT_EQ(first, encode(expected));
    ASSERT_EQ(decoded->token.size(), 32u);
    EXPECT_EQ(decoded->token.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_NE(decode(encode_own(name, "21-11-2026 05:00:00"))->token, decoded->token);

    int out[2];
    ASSERT_EQ(pipe(out), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        auto in_child = decode(encode_own("n", "t"));
        const long long pid = in_child && in_child->pid ? *in_child->pid : -1;
        (void)!write(out[1], &pid, sizeof pid);
        _exit(0);
    }
    close(out[1]);  // a child that dies before writing ends the read
    long long child_pid = 0;
    EXPECT_EQ(read(out[0], &child_pid, sizeof child_pid), static_cast<ssize_t>(sizeof child_pid));
    waitpid(child, nullptr, 0);
    close(out[0]);
    EXPECT_EQ(child_pid, child);
}

namespace {
void report_and_exit(int fd, char c) {
    (void)!write(fd, &c, 1);
    _exit(0);
}

// Forces a pid to be reused along a chain of forks, in a pid namespace (and /proc) of its own:
// P (pid 2) builds its identity and record and forks C, then exits; C, which builds neither,
// sets the namespace's last pid and forks G, which so gets P's pid. G answers 'Y' if its
// identity and its record carry its own start time, 'N' if they carry P's, 'R' if the pid was
// not reused; 'S': namespaces, mounts or ns_last_pid are not available here.
char reused_pid_outcome(const std::string &dir) {
    int out[2];
    if (pipe(out) != 0) return 'S';
    const pid_t runner = fork();
    if (runner == 0) {
        close(out[0]);
        if (unshare(CLONE_NEWPID | CLONE_NEWNS) != 0) report_and_exit(out[1], 'S');
        const pid_t init = fork();  // pid 1 of the new namespace
        if (init != 0) {
            waitpid(init, nullptr, 0);
            _exit(0);
        }
        if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
            mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
            report_and_exit(out[1], 'S');
        const pid_t p = fork();
        if (p == 0) {
            (void)encode_own("n", "t");  // P: identity and record frame cached, and a lock held
            LockFile lock(lock_file_path(dir + "/", "reused"));
            if (lock.try_acquire(encode_own("reused", "t")) != Status::Acquired)
                report_and_exit(out[1], 'S');
            if (fork() == 0) {                         // C
                while (kill(2, 0) == 0) usleep(1000);  // until init has reaped P
                usleep(50 * 1000);  // start times count in clock ticks (10 ms): G's must differ
                const int last = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
                if (last < 0 || write(last, "1", 1) != 1) report_and_exit(out[1], 'S');
                close(last);
                const pid_t g = fork();
                if (g == 0) {
                    if (getpid() != 2) report_and_exit(out[1], 'R');
                    const auto own = nativelock::process::start_ticks(2);
                    const auto record = decode(encode_own("n", "t"));
                    // Nor is the lock P held (and left behind) G's to use or release.
                    const bool ok = own && nativelock::process::self().start_ticks == *own &&
                                    record && record->start_ticks == *own && !lock.held_by_us() &&
                                    !lock.release();
                    report_and_exit(out[1], ok ? 'Y' : 'N');
                }
                waitpid(g, nullptr, 0);
                _exit(0);
            }
            _exit(0);
        }
        while (wait(nullptr) > 0) {  // P, then C (reparented to us)
        }
        _exit(0);
    }
    close(out[1]);
    char c = 'E';  // every process ended without an answer
    if (read(out[0], &c, 1) != 1) c = 'E';
    close(out[0]);
    waitpid(runner, nullptr, 0);
    return c;
}
}  // namespace

// A process that got the pid of one whose identity it inherited (P forks C and exits, C forks
// G, G gets P's pid) must not write P's start time into its records: others would judge G's
// lock by it, find pid 2 alive with another start time, and break the lock G holds. Nor may it
// take a lock P held, in an object it inherited, for its own (fork checks go by process::Tag).
TEST(FileRecord, AReusedPidGetsItsOwnIdentity) {
    if (geteuid() != 0) GTEST_SKIP() << "needs root for a pid namespace";
    char dir[] = "/tmp/nl-core-reused-pid-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const char outcome = reused_pid_outcome(dir);
    std::system(("rm -rf '" + std::string(dir) + "'").c_str());
    if (outcome == 'S') GTEST_SKIP() << "no pid namespace, /proc mount or ns_last_pid here";
    ASSERT_NE(outcome, 'R') << "the pid was not reused";
    EXPECT_EQ(outcome, 'Y') << "the child carries the identity of the process whose pid it got";
}

TEST(FileRecord, ReadsTheOriginalClassRecord) {
    // serialize(['mypid' => 4242, 'timestamp' => '...', 'name' => 'directory'])
    auto r = decode(
        "a:3:{s:5:\"mypid\";i:4242;s:9:\"timestamp\";s:19:\"09-12-2013 13:13:00\";"
        "s:4:\"name\";s:9:\"directory\";}");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->pid, 4242);
    EXPECT_EQ(r->name, "directory");
    EXPECT_FALSE(r->has_identity());
}

TEST(FileRecord, SkipsForeignValuesOfAnOverriddenBakeData) {
    auto r = decode(
        "a:5:{s:5:\"extra\";a:2:{i:0;d:1.5;i:1;b:1;}s:3:\"obj\";O:8:\"stdClass\":1:{s:1:\"a\";N;}"
        "i:7;s:1:\"x\";s:5:\"mypid\";s:3:\"977\";s:4:\"host\";s:1:\"h\";}");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->pid, 977);  // a numeric string counts
    EXPECT_EQ(r->host, "h");
    EXPECT_FALSE(r->has_identity());  // no boot_id
}

TEST(FileRecord, RejectsMalformedText) {
    for (const char *bad :
         {"", "a", "a:1:{", "s:3:\"abc\";", "a:1:{s:5:\"mypid\";i:1;", "a:1:{s:99:\"mypid\";i:1;}",
          "a:-1:{}", "a:1:{s:5:\"mypid\";i:1;}trailing", "a:1:{s:5:\"mypid\";r:1;}",
          "a:1:{s:5:\"mypid\";i:99999999999999999999999;}"}) {
        EXPECT_FALSE(decode(bad)) << bad;
    }
}

TEST(FileRecord, DeepNestingIsRejectedNotRecursedForever) {
    std::string deep = "a:1:{s:1:\"x\";";
    for (int i = 0; i < 100; ++i) deep += "a:1:{i:0;";
    deep += "N;";
    for (int i = 0; i < 100; ++i) deep += "}";
    deep += "}";
    EXPECT_FALSE(decode(deep));
}
