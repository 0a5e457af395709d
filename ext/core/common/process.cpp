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

std::string hostname() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
}

// The identity cache is per process; a forked child sees a different getpid() and rebuilds it.
std::mutex identity_mutex;
Identity cached_identity;

}  // namespace

std::optional<std::uint64_t> start_ticks(pid_t pid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    auto text = read_proc_file(path);
    if (!text) return std::nullopt;
    const std::string &stat = *text;
    // The command name (field 2) may contain spaces and parentheses: fields resume after the
    // last ')'.
    auto close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    // After ')' come fields 3..; starttime is field 22, the 20th after the name.
    for (int i = 3; i <= 22; ++i) {
        if (!(fields >> field)) return std::nullopt;
    }
    try {
        return std::stoull(field);
    } catch (...) {
        return std::nullopt;
    }
}

bool exists(pid_t pid) {
    if (pid <= 0) return false;
    if (kill(pid, 0) != 0 && errno != EPERM) return false;
    // A zombie has exited: it holds nothing any more, even though its pid is still taken.
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    std::string stat = read_proc_file(path).value_or(std::string());
    auto close = stat.rfind(')');
    if (close != std::string::npos && close + 2 < stat.size()) {
        char state = stat[close + 2];
        if (state == 'Z' || state == 'X') return false;
    }
    return true;
}

std::optional<std::int64_t> boot_time() {
    std::ifstream in("/proc/stat");
    std::string key;
    while (in >> key) {
        if (key == "btime") {
            std::int64_t value = 0;
            if (in >> value) return value;
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

const Identity &self() {
    std::lock_guard<std::mutex> guard(identity_mutex);
    pid_t pid = current_pid();
    if (cached_identity.pid != pid) {
        Identity id;
        id.pid = pid;
        id.host = hostname();
        id.boot_id = read_first_line("/proc/sys/kernel/random/boot_id");
        id.machine_id = read_first_line("/etc/machine-id");
        if (id.machine_id.empty()) id.machine_id = read_first_line("/var/lib/dbus/machine-id");
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
void forget_pid_after_fork() {
    cached_pid.store(0, std::memory_order_relaxed);
}
}  // namespace

pid_t current_pid() {
    pid_t pid = cached_pid.load(std::memory_order_relaxed);
    if (pid != 0) return pid;
    std::call_once(atfork_registered,
                   [] { pthread_atfork(nullptr, nullptr, forget_pid_after_fork); });
    pid = getpid();
    cached_pid.store(pid, std::memory_order_relaxed);
    return pid;
}

}  // namespace nativelock::process
