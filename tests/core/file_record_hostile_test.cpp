// The record parser reads lock files anyone can write: hostile member counts must be refused
// without arithmetic overflow (UBSan aborts the sanitizer build on any).
#include <gtest/gtest.h>

#include "file/record.hpp"

using namespace nativelock::file;

TEST(FileRecordHostile, HugeNestedMemberCountIsRejected) {
    // 2 * 8888888888888888888 overflowed a long long (found by the record fuzzer).
    EXPECT_FALSE(decode(R"(a:1:{s:1:"x";a:8888888888888888888:{N;N;}})"));
    EXPECT_FALSE(decode(R"(a:1:{s:1:"x";O:8:"stdClass":9223372036854775807:{N;N;}})"));
}

TEST(FileRecordHostile, MemberCountBeyondTheTextIsRejected) {
    EXPECT_FALSE(decode(R"(a:1:{s:1:"x";a:3:{N;N;}})"));
}

TEST(FileRecordHostile, ExactMemberCountsStillParse) {
    auto r = decode(R"(a:2:{s:1:"x";a:2:{N;N;i:1;N;}s:5:"mypid";i:7;})");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->pid, 7);
}
