// libFuzzer target: the owner-record codec (PHP serialize() subset).
// Mode 0 (first byte even): decode() arbitrary bytes, as read from a lock file anyone can write;
//   it must not crash, and whatever it accepts must survive encode() → decode() unchanged.
// Mode 1 (first byte odd): build a record from the bytes (arbitrary strings: quotes, NULs,
//   braces, semicolons), encode() it; decode() must give back exactly the same fields.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "file/record.hpp"

using namespace nativelock::file;

namespace {
void check(bool ok) {
    if (!ok) std::abort();
}

// encode() writes a missing pid or start time as 0, and decode() reads start_time 0 as absent.
OwnerRecord normalized(OwnerRecord r) {
    r.pid = r.pid.value_or(0);
    if (r.start_ticks &&
        (*r.start_ticks == 0 || *r.start_ticks > static_cast<std::uint64_t>(INT64_MAX))) {
        r.start_ticks.reset();
    }
    return r;
}

bool same(const OwnerRecord &a, const OwnerRecord &b) {
    return a.pid == b.pid && a.timestamp == b.timestamp && a.name == b.name && a.host == b.host &&
           a.boot_id == b.boot_id && a.pid_namespace == b.pid_namespace &&
           a.start_ticks == b.start_ticks && a.token == b.token;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    if ((data[0] & 1) == 0) {
        std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
        auto decoded = decode(text);
        if (decoded) {
            OwnerRecord expected = normalized(*decoded);
            auto again = decode(encode(*decoded));
            check(again.has_value());
            check(same(normalized(*again), expected));
        }
        return 0;
    }
    FuzzedDataProvider in(data + 1, size - 1);
    OwnerRecord r;
    r.pid = in.ConsumeIntegral<std::int64_t>();
    r.timestamp = in.ConsumeRandomLengthString(64);
    r.name = in.ConsumeRandomLengthString(300);
    r.host = in.ConsumeRandomLengthString(64);
    r.boot_id = in.ConsumeRandomLengthString(64);
    r.pid_namespace = in.ConsumeRandomLengthString(64);
    std::uint64_t ticks = in.ConsumeIntegralInRange<std::uint64_t>(0, INT64_MAX);
    if (ticks) r.start_ticks = ticks;
    r.token = in.ConsumeRemainingBytesAsString();
    auto decoded = decode(encode(r));
    check(decoded.has_value());
    check(same(*decoded, normalized(r)));
    return 0;
}
