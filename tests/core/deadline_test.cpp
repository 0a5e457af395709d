#include "common/deadline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using nativelock::Deadline;

TEST(Deadline, HugeTimeoutsMeanNoLimitInsteadOfOverflowing) {
    // 1e300 s in int64 nanoseconds overflowed into a deadline in the past.
    for (double seconds : {1e300, 9.2233720368547758e18, 1e10,
                           std::numeric_limits<double>::infinity(), std::nan("")}) {
        Deadline d = Deadline::after(seconds);
        EXPECT_TRUE(d.is_never()) << seconds;
        EXPECT_FALSE(d.expired()) << seconds;
    }
}

TEST(Deadline, LongButRepresentableTimeoutsAreKept) {
    Deadline d = Deadline::after(1e8);  // ~3 years
    EXPECT_FALSE(d.is_never());
    EXPECT_FALSE(d.expired());
    EXPECT_EQ(d.remaining_ms(500), 500);
}

TEST(Deadline, NegativeTimeoutsExpireAtOnce) {
    EXPECT_TRUE(Deadline::after(-1).expired());
    EXPECT_TRUE(Deadline::after(0).expired());
}
