#include "common/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <atomic>
#include <mutex>
#include <pthread.h>
#include <sstream>

namespace nativelock::process {
namespace {

std::string read_first_line(const char *path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::string link_target(const char *path) {
    char buf[256];
    ssize_t len = readlink(path, buf, sizeof buf - 1);
    return len > 0 ? std::string(buf, static_cast<std::size_t>(len)) : std::string();
}

// The whole of a small /proc file, or nothing. Plain read(2), no iostreams: reading
// /proc/<pid>/stat of a process that exits meanwhile fails with ESRCH, which libstdc++'s
// filebuf turns into an exception (lock() threw "basic_filebuf::underflow error reading the
// file: No such process" when a holder died at that moment; found by the crash-recovery
// torture).
std::optional<std::string> read_proc_file(const char *path) {
    int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string text;
    char buf[1024];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

std::uint32_t rotr(std::uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

std::string hostname() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
}

// Forks this process descends through, counted in every child (the atfork handler of
// current_pid()): a child rebuilds the identity it inherited even if it got the same pid.
std::atomic<unsigned long> forks_seen{0};

// The identity cache is per process (see forks_seen).
std::mutex identity_mutex;
Identity cached_identity;
// The forks_seen at which cached_identity was computed.
unsigned long identity_forks = 0;

}  // namespace

namespace {
// The boot-time offset of this process's time namespace (0 outside one, and on kernels without
// them), in nanoseconds. /proc/PID/stat's start times and /proc/stat's btime are shown shifted
// by the *reader's* offset, so a holder's recorded start time read from another time namespace
// (unshare -T, a container restored by CRIU) differed from what it wrote, and the live holder
// was judged dead. Start times and btime are taken back to the initial namespace's clock.
std::int64_t boottime_offset_ns() {
    static std::atomic<pid_t> read_in{0};
    static std::atomic<std::int64_t> offset{0};
    const pid_t pid = current_pid();  // a forked child may live in its parent's new namespace
    if (read_in.load(std::memory_order_acquire) == pid)
        return offset.load(std::memory_order_relaxed);
    std::int64_t ns = 0;
    if (auto text = read_proc_file("/proc/self/timens_offsets")) {
        std::istringstream lines(*text);
        std::string clock;
        long long seconds = 0, nanoseconds = 0;
        while (lines >> clock >> seconds >> nanoseconds) {
            // CLOCK_BOOTTIME is 7; the kernel prints its name.
            if ((clock == "boottime" || clock == "7") && seconds > -(1LL << 32) &&
                seconds < (1LL << 32)) {
                ns = seconds * 1000000000LL + nanoseconds;
            }
        }
    }
    offset.store(ns, std::memory_order_relaxed);
    read_in.store(pid, std::memory_order_release);
    return ns;
}

// The state (field 3) and start time (field 22) of /proc/PID/stat, if it can be read.
struct StatFields {
    char state = '?';
    std::optional<std::uint64_t> start_ticks;
};

std::optional<StatFields> read_stat(pid_t pid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    auto text = read_proc_file(path);
    if (!text) return std::nullopt;
    const std::string &stat = *text;
    // The command name (field 2) may contain spaces and parentheses: fields resume after the
    // last ')'.
    auto close = stat.rfind(')');
    if (close == std::string::npos) return StatFields{};
    StatFields fields;
    if (close + 2 < stat.size()) fields.state = stat[close + 2];
    std::istringstream rest(stat.substr(close + 1));
    std::string field;
    // After ')' come fields 3..; starttime is field 22, the 20th after the name.
    for (int i = 3; i <= 22; ++i) {
        if (!(rest >> field)) return fields;
    }
    try {
        // On the initial time namespace's clock (see boottime_offset_ns()). The floor of the
        // kernel's division can leave one tick of difference between namespaces.
        const auto shown = static_cast<std::int64_t>(std::stoull(field));
        // Floored, for offsets of either sign: every reading then lands on S or S + 1.
        const std::int64_t tick_ns = 1000000000LL / ticks_per_second();
        const std::int64_t offset = boottime_offset_ns();
        const std::int64_t shift = offset / tick_ns - (offset % tick_ns < 0 ? 1 : 0);
        fields.start_ticks = static_cast<std::uint64_t>(shown > shift ? shown - shift : 0);
    } catch (...) {
        // not a number: the start time stays unknown, as for a line cut short
    }
    return fields;
}

// A zombie has exited: it holds nothing any more, even though its pid is still taken.
bool exited(const StatFields &fields) {
    return fields.state == 'Z' || fields.state == 'X';
}
}  // namespace

std::optional<std::uint64_t> start_ticks(pid_t pid) {
    auto fields = read_stat(pid);
    return fields ? fields->start_ticks : std::nullopt;
}

bool exists(pid_t pid) {
    return look(pid).exists;
}

Liveness look(pid_t pid) {
    Liveness seen;
    if (pid <= 0) return seen;
    if (kill(pid, 0) != 0 && errno != EPERM) return seen;
    // Without /proc (or with it gone meanwhile) kill() alone says so.
    auto fields = read_stat(pid);
    if (fields && exited(*fields)) return seen;
    seen.exists = true;
    if (fields) seen.start_ticks = fields->start_ticks;
    return seen;
}

std::optional<std::int64_t> boot_time() {
    std::ifstream in("/proc/stat");
    std::string key;
    while (in >> key) {
        if (key == "btime") {
            std::int64_t value = 0;
            // Shown less the reader's time-namespace offset: the wall-clock boot time is that
            // plus it (file times are compared with it).
            if (in >> value) return value + boottime_offset_ns() / 1000000000LL;
            return std::nullopt;
        }
        in.ignore(1 << 20, '\n');
    }
    return std::nullopt;
}

long ticks_per_second() {
    static const long ticks = sysconf(_SC_CLK_TCK);
    return ticks > 0 ? ticks : 100;
}

std::string sha256_hex(const std::string &data) {
    static const std::uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::string msg = data;
    std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
    msg.push_back(static_cast<char>(0x80));
    while (msg.size() % 64 != 56) msg.push_back('\0');
    for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
    for (std::size_t chunk = 0; chunk < msg.size(); chunk += 64) {
        std::uint32_t w[64];
        for (int i = 0; i < 16; ++i) {
            const auto *p = reinterpret_cast<const unsigned char *>(msg.data() + chunk + 4 * i);
            w[i] = (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) |
                   (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
        }
        for (int i = 16; i < 64; ++i) {
            std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6],
                      hh = h[7];
        for (int i = 0; i < 64; ++i) {
            std::uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            std::uint32_t ch = (e & f) ^ (~e & g);
            std::uint32_t t1 = hh + s1 + ch + k[i] + w[i];
            std::uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
            std::uint32_t t2 = s0 + maj;
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
    }
    char out[65];
    for (int i = 0; i < 8; ++i) std::snprintf(out + 8 * i, 9, "%08x", h[i]);
    return std::string(out, 64);
}

std::string hashed_machine_id(const std::string &raw) {
    if (raw.size() != 32) return "";
    for (char c : raw) {
        bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!hex) return "";
    }
    // "uninitialized" and all-zero ids (systemd's placeholders) are not identities.
    if (raw.find_first_not_of('0') == std::string::npos) return "";
    return sha256_hex("nativelock machine-id " + raw).substr(0, 32);
}

const Identity &self() {
    std::lock_guard<std::mutex> guard(identity_mutex);
    pid_t pid = current_pid();  // also registers the atfork handler that counts forks
    const unsigned long forks = forks_seen.load(std::memory_order_relaxed);
    if (cached_identity.pid != pid || identity_forks != forks) {
        Identity id;
        id.pid = pid;
        id.generation = cached_identity.generation + 1;
        identity_forks = forks;
        id.host = hostname();
        id.boot_id = read_first_line("/proc/sys/kernel/random/boot_id");
        for (const char *path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
            id.machine_id = hashed_machine_id(read_first_line(path));
            if (!id.machine_id.empty()) break;
        }
        id.pid_namespace = link_target("/proc/self/ns/pid");
        id.start_ticks = start_ticks(pid).value_or(0);
        cached_identity = std::move(id);
    }
    return cached_identity;
}

namespace {
// getpid() is a system call, and every lock operation asks for it several times (fork checks).
// The cache is cleared in the child of every fork() (pcntl_fork, php-fpm workers) by an atfork
// handler, so a child never sees its parent's pid.
std::atomic<pid_t> cached_pid{0};
std::once_flag atfork_registered;
// The identity's mutex is held across fork (threaded PHP): a child never finds it taken by a
// thread that does not exist there.
void before_fork() {
    identity_mutex.lock();
}
void after_fork_in_parent() {
    identity_mutex.unlock();
}
void forget_pid_after_fork() {
    cached_pid.store(0, std::memory_order_relaxed);
    forks_seen.fetch_add(1, std::memory_order_relaxed);
    identity_mutex.unlock();
}
}  // namespace

pid_t current_pid() {
    pid_t pid = cached_pid.load(std::memory_order_relaxed);
    if (pid != 0) return pid;
    std::call_once(atfork_registered, [] {
        pthread_atfork(before_fork, after_fork_in_parent, forget_pid_after_fork);
    });
    pid = getpid();
    cached_pid.store(pid, std::memory_order_relaxed);
    return pid;
}

Tag current_tag() {
    const pid_t pid = current_pid();  // registers the handler that counts forks
    return Tag{pid, forks_seen.load(std::memory_order_relaxed)};
}

}  // namespace nativelock::process
