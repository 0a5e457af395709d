// The owner record stored in a lock file: PHP serialize() of an array, as the original class
// writes it ({mypid, timestamp, name}), extended with what makes stale owners provable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nativelock::file {

struct OwnerRecord {
    std::optional<std::int64_t> pid;           // "mypid"
    std::string timestamp;                     // "timestamp", d-m-Y H:i:s as date() formats it
    std::string name;                          // "name", the unmapped lock name
    std::string host;                          // "host"
    std::string boot_id;                       // "boot_id"
    std::string machine_id;                    // "machine_id"
    std::string pid_namespace;                 // "pidns", e.g. "pid:[4026531836]"
    std::optional<std::uint64_t> start_ticks;  // "start_time", ticks since boot
    std::string token;                         // "token"

    bool has_identity() const { return !host.empty() && !boot_id.empty(); }
};

// PHP serialize() of the record as an array, keys in the order above; the original's keys
// come first so that its readers see what they expect.
std::string encode(const OwnerRecord &record);

// encode() of this process's own record, with its identity (process::self()) serialized once
// per process: only the lock's name, the timestamp and a fresh 16-byte token (hex) are written
// per call. Building the record field by field was the largest piece of user time in an
// uncontended try_lock()+unlock(). Equal to encode() of the same record (tested).
std::string encode_own(std::string_view name, std::string_view timestamp);

// Where `timestamp` stands in `record` as the value of its "timestamp" key (the offset of its
// first character), or std::string_view::npos. For rewriting a record's timestamp in place.
std::size_t find_timestamp(std::string_view record, std::string_view timestamp);

// Reads any serialize()d array (including one from an overridden bake_data()), taking the
// known keys and skipping everything else. Nothing if the text is not a serialized array.
std::optional<OwnerRecord> decode(std::string_view text);

}  // namespace nativelock::file
