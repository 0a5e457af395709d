#include "file/staleness.hpp"

namespace nativelock::file {
namespace {

class SystemProbe final : public ProcessProbe {
  public:
    bool exists(pid_t pid) const override { return process::exists(pid); }
    std::optional<std::uint64_t> start_ticks(pid_t pid) const override {
        return process::start_ticks(pid);
    }
    std::optional<std::int64_t> boot_time() const override { return process::boot_time(); }
    long ticks_per_second() const override { return process::ticks_per_second(); }
    process::Liveness look(pid_t pid) const override { return process::look(pid); }
};

bool same_machine_instance(const OwnerRecord &record, const process::Identity &self) {
    return record.host == self.host && record.boot_id == self.boot_id &&
           (record.pid_namespace.empty() || record.pid_namespace == self.pid_namespace);
}

bool valid_pid(const std::optional<std::int64_t> &pid) {
    return pid && *pid > 0 && *pid <= 0x7fffffff;
}

// A process that started after the lock file was written cannot be the one that wrote it:
// the recorded pid has been reused.
bool started_after(const std::optional<std::uint64_t> &ticks, std::int64_t file_mtime,
                   const ProcessProbe &probe) {
    auto boot = probe.boot_time();
    if (!ticks || !boot) return false;
    std::int64_t started = *boot + static_cast<std::int64_t>(*ticks / probe.ticks_per_second());
    // One second of slack for the rounding of btime and of the start time.
    return started > file_mtime + 1;
}

Verdict judge_identified(const HolderFacts &facts, const OwnerRecord &record,
                         const process::Identity &self, const ProcessProbe &probe) {
    if (record.host != self.host) return Verdict::Unknown;
    if (record.boot_id != self.boot_id) {
        // Another boot: an earlier one of this machine (all its processes are gone), or another
        // machine that shares our host name (cloned VMs, containers with a fixed hostname):
        // host names prove nothing. It is ours only if written before we booted, and on a
        // filesystem only this kernel writes or with our machine-id (a clone that kept the
        // machine-id still fails the boot-time test while both run).
        auto boot = probe.boot_time();
        if (!boot || facts.file_mtime >= *boot) return Verdict::Unknown;
        if (facts.local_filesystem) return Verdict::Dead;
        if (!record.machine_id.empty() && record.machine_id == self.machine_id) {
            return Verdict::Dead;
        }
        return Verdict::Unknown;
    }
    if (!record.pid_namespace.empty() && record.pid_namespace != self.pid_namespace) {
        return Verdict::Unknown;
    }
    if (!valid_pid(record.pid)) return Verdict::Unknown;
    const process::Liveness seen = probe.look(static_cast<pid_t>(*record.pid));
    if (!seen.exists) return Verdict::Dead;
    if (record.start_ticks) {
        // One tick of slack: start times read in different time namespaces are taken back to
        // one clock, to within the kernel's rounding (process::start_ticks()). A reused pid
        // would need the pid space to wrap within those 10 ms.
        if (seen.start_ticks && (*seen.start_ticks > *record.start_ticks + 1 ||
                                 *record.start_ticks > *seen.start_ticks + 1))
            return Verdict::Dead;
        return Verdict::Alive;
    }
    return started_after(seen.start_ticks, facts.file_mtime, probe) ? Verdict::Dead
                                                                    : Verdict::Alive;
}

// Records of the original class carry only a pid: trusted on a local filesystem only, where
// every writer shares our process table.
Verdict judge_anonymous(const HolderFacts &facts, const ProcessProbe &probe) {
    if (!facts.local_filesystem) return Verdict::Unknown;
    auto boot = probe.boot_time();
    if (boot && facts.file_mtime < *boot) return Verdict::Dead;
    if (!facts.record || !valid_pid(facts.record->pid)) return Verdict::Unknown;
    const process::Liveness seen = probe.look(static_cast<pid_t>(*facts.record->pid));
    if (!seen.exists) return Verdict::Dead;
    return started_after(seen.start_ticks, facts.file_mtime, probe) ? Verdict::Dead
                                                                    : Verdict::Alive;
}

}  // namespace

const ProcessProbe &system_probe() {
    static const SystemProbe probe;
    return probe;
}

Verdict judge(const HolderFacts &facts, const process::Identity &self, const ProcessProbe &probe) {
    if (facts.record && facts.record->has_identity()) {
        return judge_identified(facts, *facts.record, self, probe);
    }
    return judge_anonymous(facts, probe);
}

std::optional<pid_t> local_owner_pid(const HolderFacts &facts, const process::Identity &self) {
    if (!facts.record || !valid_pid(facts.record->pid)) return std::nullopt;
    if (facts.record->has_identity()) {
        if (!same_machine_instance(*facts.record, self)) return std::nullopt;
    } else if (!facts.local_filesystem) {
        return std::nullopt;
    }
    return static_cast<pid_t>(*facts.record->pid);
}

}  // namespace nativelock::file
