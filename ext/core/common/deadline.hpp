// Monotonic deadlines for waits that may or may not have a limit.
#pragma once

#include <chrono>
#include <optional>

namespace nativelock {

class Deadline {
  public:
    using Clock = std::chrono::steady_clock;

    static Deadline never() { return Deadline(std::nullopt); }
    // Longer waits than this have no practical limit. Converting them to the clock's 64-bit
    // nanoseconds would overflow (undefined; in practice a deadline in the past, so lock(1e300)
    // gave up at once): they become never().
    static constexpr double kUnlimitedSeconds = 1e9;  // ~31 years

    static Deadline after(double seconds) {
        if (!(seconds < kUnlimitedSeconds)) return never();  // also NaN
        if (seconds < 0) seconds = 0;
        return Deadline(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(seconds)));
    }

    bool is_never() const { return !at_; }
    bool expired() const { return at_ && Clock::now() >= *at_; }

    // Milliseconds left, rounded up, capped at cap_ms; cap_ms when there is no limit.
    int remaining_ms(int cap_ms) const {
        if (!at_) return cap_ms;
        auto left = std::chrono::ceil<std::chrono::milliseconds>(*at_ - Clock::now()).count();
        if (left <= 0) return 0;
        return left < cap_ms ? static_cast<int>(left) : cap_ms;
    }

    // Seconds left, capped at cap_seconds; cap_seconds when there is no limit ("no limit" is
    // its own case, never a number standing for it).
    double remaining_seconds(double cap_seconds) const {
        if (!at_) return cap_seconds;
        auto left = std::chrono::duration<double>(*at_ - Clock::now()).count();
        if (left <= 0) return 0;
        return left < cap_seconds ? left : cap_seconds;
    }

  private:
    explicit Deadline(std::optional<Clock::time_point> at) : at_(at) {}
    std::optional<Clock::time_point> at_;
};

}  // namespace nativelock
