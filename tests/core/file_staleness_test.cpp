#include <gtest/gtest.h>

#include <map>

#include "file/staleness.hpp"

using namespace nativelock;
using namespace nativelock::file;

namespace {

class FakeProbe : public ProcessProbe {
  public:
    std::map<pid_t, std::uint64_t> processes;  // pid -> start ticks
    std::int64_t boot = 1'000'000;
    bool exists(pid_t pid) const override { return processes.count(pid) > 0; }
    std::optional<std::uint64_t> start_ticks(pid_t pid) const override {
        auto it = processes.find(pid);
        if (it == processes.end()) return std::nullopt;
        return it->second;
    }
    std::optional<std::int64_t> boot_time() const override { return boot; }
    long ticks_per_second() const override { return 100; }
};

process::Identity me() {
    process::Identity id;
    id.pid = 1;
    id.host = "web-1";
    id.boot_id = "boot-a";
    id.machine_id = "machine-a";
    id.pid_namespace = "pid:[1]";
    id.start_ticks = 5;
    return id;
}

OwnerRecord ours(pid_t pid, std::uint64_t ticks) {
    OwnerRecord r;
    r.pid = pid;
    r.host = "web-1";
    r.boot_id = "boot-a";
    r.machine_id = "machine-a";
    r.pid_namespace = "pid:[1]";
    r.start_ticks = ticks;
    return r;
}

HolderFacts facts(std::optional<OwnerRecord> r, bool local = true, std::int64_t mtime = 1'000'500) {
    HolderFacts f;
    f.record = std::move(r);
    f.local_filesystem = local;
    f.file_mtime = mtime;
    return f;
}

}  // namespace

TEST(FileStaleness, LiveOwnerIsAlive) {
    FakeProbe probe;
    probe.processes[77] = 4200;
    EXPECT_EQ(judge(facts(ours(77, 4200)), me(), probe), Verdict::Alive);
}

TEST(FileStaleness, MissingPidIsDead) {
    FakeProbe probe;
    EXPECT_EQ(judge(facts(ours(77, 4200)), me(), probe), Verdict::Dead);
}

TEST(FileStaleness, ReusedPidIsDead) {
    FakeProbe probe;
    probe.processes[77] = 9999;  // same pid, other process
    EXPECT_EQ(judge(facts(ours(77, 4200)), me(), probe), Verdict::Dead);
}

TEST(FileStaleness, AStartTimeOneTickOffIsTheSameProcess) {
    // Read in another time namespace, a start time is taken back to one clock to within the
    // kernel's rounding: one tick either way is the holder itself, two are another process.
    FakeProbe probe;
    for (std::uint64_t seen : {4199u, 4201u}) {
        probe.processes[77] = seen;
        EXPECT_EQ(judge(facts(ours(77, 4200)), me(), probe), Verdict::Alive) << seen;
    }
    for (std::uint64_t seen : {4198u, 4202u}) {
        probe.processes[77] = seen;
        EXPECT_EQ(judge(facts(ours(77, 4200)), me(), probe), Verdict::Dead) << seen;
    }
}

TEST(FileStaleness, OtherHostIsNeverJudged) {
    FakeProbe probe;
    auto r = ours(77, 4200);
    r.host = "web-2";
    EXPECT_EQ(judge(facts(r), me(), probe), Verdict::Unknown);
    EXPECT_FALSE(local_owner_pid(facts(r), me()));
}

TEST(FileStaleness, EarlierBootOfThisMachineIsDeadOnNfs) {
    FakeProbe probe;
    probe.processes[77] = 4200;  // a pid that exists now means nothing after a reboot
    auto r = ours(77, 4200);
    r.boot_id = "boot-old";
    EXPECT_EQ(judge(facts(r, /*local=*/false, /*mtime=*/999'000), me(), probe), Verdict::Dead);
}

// A clone that kept our machine-id runs now: its record was written after we booted.
TEST(FileStaleness, SameMachineIdWrittenAfterOurBootIsNotAnEarlierBoot) {
    FakeProbe probe;
    auto r = ours(77, 4200);
    r.boot_id = "boot-clone";
    EXPECT_EQ(judge(facts(r, /*local=*/false, /*mtime=*/1'000'500), me(), probe), Verdict::Unknown);
}

TEST(FileStaleness, EarlierBootIsDeadOnALocalFilesystem) {
    // Only this kernel writes a local filesystem: a record of another boot is from ours.
    FakeProbe probe;
    auto r = ours(77, 4200);
    r.boot_id = "boot-old";
    r.machine_id.clear();  // e.g. written by an older nativelock
    EXPECT_EQ(judge(facts(r, /*local=*/true, /*mtime=*/999'000), me(), probe), Verdict::Dead);
}

// Host names are not unique (cloned VMs, containers with a fixed hostname, "localhost"): a
// record with our host name but another boot and another (or no) machine-id is another
// machine's on a shared filesystem, alive or not - never ours to break.
TEST(FileStaleness, OtherMachineWithOurHostNameIsNeverJudgedOnNfs) {
    FakeProbe probe;  // its pid does not exist here: that proves nothing
    auto r = ours(77, 4200);
    r.boot_id = "boot-b";
    r.machine_id = "machine-b";
    EXPECT_EQ(judge(facts(r, /*local=*/false), me(), probe), Verdict::Unknown);
    EXPECT_FALSE(local_owner_pid(facts(r, false), me()));
    r.machine_id.clear();
    EXPECT_EQ(judge(facts(r, /*local=*/false), me(), probe), Verdict::Unknown);
}

TEST(FileStaleness, WithoutOurOwnMachineIdAnotherBootOnNfsIsUnknown) {
    FakeProbe probe;
    auto self = me();
    self.machine_id.clear();
    auto r = ours(77, 4200);
    r.boot_id = "boot-b";
    r.machine_id.clear();
    EXPECT_EQ(judge(facts(r, /*local=*/false), self, probe), Verdict::Unknown);
}

TEST(FileStaleness, OtherPidNamespaceIsNeverJudged) {
    FakeProbe probe;
    auto r = ours(77, 4200);
    r.pid_namespace = "pid:[2]";
    EXPECT_EQ(judge(facts(r), me(), probe), Verdict::Unknown);
}

TEST(FileStaleness, IdentifiedRecordsAreJudgedOnNfsToo) {
    FakeProbe probe;
    EXPECT_EQ(judge(facts(ours(77, 4200), /*local=*/false), me(), probe), Verdict::Dead);
}

TEST(FileStaleness, OriginalRecordOnlyOnLocalFilesystem) {
    FakeProbe probe;
    OwnerRecord original;
    original.pid = 77;
    EXPECT_EQ(judge(facts(original, /*local=*/true), me(), probe), Verdict::Dead);
    EXPECT_EQ(judge(facts(original, /*local=*/false), me(), probe), Verdict::Unknown);
    probe.processes[77] = 100;  // started at boot + 1 s, long before the file was written
    EXPECT_EQ(judge(facts(original, true), me(), probe), Verdict::Alive);
}

TEST(FileStaleness, OriginalRecordWithPidStartedAfterTheFileIsDead) {
    FakeProbe probe;
    OwnerRecord original;
    original.pid = 77;
    probe.processes[77] = 100 * 1000;  // started at boot + 1000 s; file written at boot + 500 s
    EXPECT_EQ(judge(facts(original, true, probe.boot + 500), me(), probe), Verdict::Dead);
}

TEST(FileStaleness, FileFromBeforeBootIsDeadOnLocalFilesystem) {
    FakeProbe probe;
    EXPECT_EQ(judge(facts(std::nullopt, true, probe.boot - 10), me(), probe), Verdict::Dead);
    EXPECT_EQ(judge(facts(std::nullopt, true, probe.boot + 10), me(), probe), Verdict::Unknown);
    EXPECT_EQ(judge(facts(std::nullopt, false, probe.boot - 10), me(), probe), Verdict::Unknown);
}

TEST(FileStaleness, NeverByAgeAlone) {
    FakeProbe probe;
    probe.processes[77] = 4200;
    // A lock file written years ago (but in this boot) by a live owner stays alive.
    EXPECT_EQ(judge(facts(ours(77, 4200), true, probe.boot + 1), me(), probe), Verdict::Alive);
}

TEST(FileStaleness, LocalOwnerPidForWaiting) {
    EXPECT_EQ(local_owner_pid(facts(ours(77, 1)), me()), 77);
    OwnerRecord original;
    original.pid = 88;
    EXPECT_EQ(local_owner_pid(facts(original, true), me()), 88);
    EXPECT_FALSE(local_owner_pid(facts(original, false), me()));
}
