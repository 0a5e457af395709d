// Lock-file naming, byte-compatible with the original class:
//   $lockpath . preg_replace('/\W/', '_', $name) . '.lock'
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nativelock::file {

// Longest mapped name accepted: the temp file "<name>.lock.pid.<pid>.mtrand.<rand>" must still
// fit in NAME_MAX (255) with a 10-digit pid and a 10-digit random number.
constexpr std::size_t kMaxMappedNameLength =
    255 - (sizeof(".lock.pid.") - 1) - 10 - (sizeof(".mtrand.") - 1) - 10;

// Every byte outside [A-Za-z0-9_] becomes '_' (PCRE's \W in the C locale, byte-wise, so a
// two-byte UTF-8 character becomes "__").
std::string map_name(std::string_view name);

// Throws InvalidArgument for an empty name or one whose file name would exceed NAME_MAX.
std::string lock_file_path(std::string_view lockpath, std::string_view name);

// "<lock file>.pid.<pid>.mtrand.<random>", the original's temp-file name.
std::string temp_file_path(const std::string &lock_file, long pid, unsigned long random);

}  // namespace nativelock::file
