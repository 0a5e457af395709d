#include <gtest/gtest.h>

#include "common/process.hpp"

using namespace nativelock;

TEST(FileMachineIdentity, Sha256KnownVectors) {
    EXPECT_EQ(process::sha256_hex(""),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(process::sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // Two blocks of padding.
    EXPECT_EQ(process::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(FileMachineIdentity, MachineIdIsHashedNeverRaw) {
    std::string raw = "3d1219c7c4c5404aaa1f6d2a48adfda4";
    std::string id = process::hashed_machine_id(raw);
    ASSERT_EQ(id.size(), 32u);
    EXPECT_NE(id, raw);
    EXPECT_EQ(id, process::sha256_hex("nativelock machine-id " + raw).substr(0, 32));
    EXPECT_NE(id, process::hashed_machine_id("3d1219c7c4c5404aaa1f6d2a48adfda5"));
}

TEST(FileMachineIdentity, PlaceholdersAreNoIdentity) {
    EXPECT_EQ(process::hashed_machine_id(""), "");
    EXPECT_EQ(process::hashed_machine_id("uninitialized"), "");
    EXPECT_EQ(process::hashed_machine_id("00000000000000000000000000000000"), "");
    EXPECT_EQ(process::hashed_machine_id("3d1219c7c4c5404aaa1f6d2a48adfdzz"), "");
}

TEST(FileMachineIdentity, SelfHasTheMachineIdOfThisMachine) {
    const auto &self = process::self();
    EXPECT_FALSE(self.boot_id.empty());
    // Empty only where the machine has no machine-id at all (some containers).
    FILE *f = std::fopen("/etc/machine-id", "r");
    if (!f) f = std::fopen("/var/lib/dbus/machine-id", "r");
    if (!f) GTEST_SKIP() << "no machine-id on this machine";
    char buf[64] = {0};
    bool got = std::fgets(buf, sizeof buf, f) != nullptr;
    std::fclose(f);
    ASSERT_TRUE(got);
    std::string raw(buf);
    while (!raw.empty() && (raw.back() == '\n' || raw.back() == '\r')) raw.pop_back();
    EXPECT_EQ(self.machine_id, process::hashed_machine_id(raw));
}
