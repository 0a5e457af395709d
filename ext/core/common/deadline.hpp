// Monotonic deadlines for waits that may or may not have a limit.
#pragma once

#include <chrono>
#include <optional>

namespace nativelock {

class Deadline {
  public:
    using Clock = std::chrono::steady_clock;

    static Deadline never() { return Deadline(std::nullopt); }
    static Deadline after(double seconds) {
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

    double remaining_seconds() const {
        if (!at_) return -1;
        auto left = std::chrono::duration<double>(*at_ - Clock::now()).count();
        return left > 0 ? left : 0;
    }

  private:
    explicit Deadline(std::optional<Clock::time_point> at) : at_(at) {}
    std::optional<Clock::time_point> at_;
};

}  // namespace nativelock
