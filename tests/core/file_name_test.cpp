#include <gtest/gtest.h>

#include "common/error.hpp"
#include "file/name.hpp"

using namespace nativelock;
using namespace nativelock::file;

TEST(FileName, WordCharactersAreKept) {
    EXPECT_EQ(map_name("myfirstlock"), "myfirstlock");
    EXPECT_EQ(map_name("Az09_"), "Az09_");
}

TEST(FileName, EveryNonWordByteBecomesUnderscore) {
    EXPECT_EQ(map_name("a b/c.d-e"), "a_b_c_d_e");
    EXPECT_EQ(map_name("../../etc/passwd"), "______etc_passwd");
    EXPECT_EQ(map_name(std::string("a\0b", 3)), "a_b");
    // UTF-8 is mapped byte by byte, like preg_replace without /u: "é" is two bytes.
    EXPECT_EQ(map_name("caf\xc3\xa9"), "caf__");
    EXPECT_EQ(map_name("\xff"), "_");
}

TEST(FileName, PathIsLockpathNamedotLockWithoutSeparator) {
    EXPECT_EQ(lock_file_path("/tmp/", "directory"), "/tmp/directory.lock");
    // Interop beats tidiness: no '/' is added, exactly like the original.
    EXPECT_EQ(lock_file_path("/var/lib/locks", "x"), "/var/lib/locksx.lock");
}

TEST(FileName, RejectsEmptyAndOverlongNames) {
    EXPECT_THROW(lock_file_path("/tmp/", ""), InvalidArgument);
    EXPECT_NO_THROW(lock_file_path("/tmp/", std::string(kMaxMappedNameLength, 'a')));
    EXPECT_THROW(lock_file_path("/tmp/", std::string(kMaxMappedNameLength + 1, 'a')),
                 InvalidArgument);
}

TEST(FileName, RejectsLockpathWithNulByte) {
    // Cut at the NUL by the kernel, "/etc/passwd\0" + name would be /etc/passwd itself.
    EXPECT_THROW(lock_file_path(std::string_view("/etc/passwd\0", 12), "x"), InvalidArgument);
    EXPECT_THROW(lock_file_path(std::string_view("/tmp/\0/", 7), "x"), InvalidArgument);
}

TEST(FileName, TempFileNameFitsNameMax) {
    std::string lock = lock_file_path("/", std::string(kMaxMappedNameLength, 'a'));
    std::string temp = temp_file_path(lock, 2147483647L, 2147483647UL);
    EXPECT_LE(temp.size() - 1, 255u);
    EXPECT_EQ(temp_file_path("/tmp/x.lock", 42, 7), "/tmp/x.lock.pid.42.mtrand.7");
}
