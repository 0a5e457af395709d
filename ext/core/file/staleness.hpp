// Deciding whether the owner recorded in a lock file is provably dead. "Provably" is the
// whole point: anything we cannot prove (other host, other pid namespace, unreadable record,
// a network filesystem for records without identity) is treated as alive. Never by age alone.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>

#include "common/process.hpp"
#include "file/record.hpp"

namespace nativelock::file {

enum class Verdict { Alive, Dead, Unknown };

// The process facts a judgement needs; tests substitute a fake.
class ProcessProbe {
  public:
    virtual ~ProcessProbe() = default;
    virtual bool exists(pid_t pid) const = 0;
    virtual std::optional<std::uint64_t> start_ticks(pid_t pid) const = 0;
    virtual std::optional<std::int64_t> boot_time() const = 0;
    virtual long ticks_per_second() const = 0;
    // exists() and, for a process that exists, start_ticks(): the system's probe reads /proc
    // once for both.
    virtual process::Liveness look(pid_t pid) const {
        process::Liveness seen;
        seen.exists = exists(pid);
        if (seen.exists) seen.start_ticks = start_ticks(pid);
        return seen;
    }
};

// The probe of this machine (/proc, kill(pid, 0)).
const ProcessProbe &system_probe();

struct HolderFacts {
    std::optional<OwnerRecord> record;  // nothing if unreadable or not a serialized array
    std::int64_t file_mtime = 0;        // seconds since the epoch
    bool local_filesystem = false;      // false for NFS, CIFS and other shared filesystems
};

Verdict judge(const HolderFacts &facts, const process::Identity &self, const ProcessProbe &probe);

// For waiting on a live local owner: its pid, if the record names one on this host and boot.
std::optional<pid_t> local_owner_pid(const HolderFacts &facts, const process::Identity &self);

}  // namespace nativelock::file
