// Facts about processes that lock owners are judged by: who we are (host, boot, pid, start
// time) and whether a recorded owner can still be alive.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace nativelock::process {

// Identity of the calling process. Cached per process: recomputed in every child of fork(),
// even one that got the pid of a process whose identity it inherited (a pid reused along a
// chain of forks: its start time differs).
struct Identity {
    pid_t pid = 0;
    // Which computation this is: greater in a forked child than any identity it inherited, so
    // that caches built from an identity can tell whether it is still the current one.
    std::uint64_t generation = 0;
    std::string host;
    std::string boot_id;
    // hashed_machine_id() of /etc/machine-id (empty if the machine has none; the raw id is kept
    // private, as machine-id(5) asks). With a boot_id that differs from ours it tells an earlier
    // boot of this machine from another machine that shares our host name.
    std::string machine_id;
    // Containers on one kernel share boot_id but not pids: owners are judged only in our own
    // pid namespace.
    std::string pid_namespace;
    // Start time in clock ticks since boot (field 22 of /proc/PID/stat); with boot_id it names
    // one process uniquely, even after its pid is reused.
    std::uint64_t start_ticks = 0;
};

const Identity &self();

// The machine_id of Identity for the given contents of /etc/machine-id: the first 32 hex digits
// of SHA-256("nativelock machine-id " + id), or empty if `raw` is not a 32-hex-digit id.
std::string hashed_machine_id(const std::string &raw);

// SHA-256 of `data` as 64 lowercase hex digits.
std::string sha256_hex(const std::string &data);

// The pid of the caller, without a system call once cached (invalidated by fork).
pid_t current_pid();

// The calling process, as fork checks must tell it apart: its pid, and the forks it descends
// through. A pid is not enough: along a chain of forks a grandchild can get the pid of the
// grandparent whose objects it inherited (through a child that never touched them), and would
// take the grandparent's locks, connections and renewals for its own.
struct Tag {
    pid_t pid = 0;
    unsigned long forks = 0;
    bool operator==(const Tag &other) const { return pid == other.pid && forks == other.forks; }
    bool operator!=(const Tag &other) const { return !(*this == other); }
};
// Never equal to a default Tag{} (no process).
Tag current_tag();

// Start time of a running process in ticks since boot, or nothing if it does not exist.
std::optional<std::uint64_t> start_ticks(pid_t pid);

// Whether a process with this pid is running (kill(pid, 0), EPERM counts; zombies do not).
bool exists(pid_t pid);

// exists() and start_ticks() from one reading of /proc/PID/stat (a judge asks both).
struct Liveness {
    bool exists = false;
    std::optional<std::uint64_t> start_ticks;  // nothing if gone, or /proc cannot say
};
Liveness look(pid_t pid);

// Seconds since the epoch at which this machine booted (from /proc/stat btime).
std::optional<std::int64_t> boot_time();

// Clock ticks per second used by /proc/PID/stat.
long ticks_per_second();

}  // namespace nativelock::process
