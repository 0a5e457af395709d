// Fencing tokens for file locks: a counter file beside the lock file, advanced by the holder.
//
//   "<lock file>.fence"  the decimal token of the last fenced acquisition, and a newline.
//
// The holder reads it (missing = 0), writes the next value to a temp file of its own
// ("<lock file>.fence.tmp.<pid>.<random>", O_CREAT|O_EXCL|O_NOFOLLOW), fsyncs it, renames it
// over the counter and fsyncs the directory; only then is the token handed out. A holder killed
// at any point leaves the old value or the new one, never a torn file; a machine crash keeps a
// token once it was handed out. No lock file ends in ".fence", so a counter never shadows a lock.
#pragma once

#include <string>

namespace nativelock::file {

// "<lock file>.fence".
std::string fence_path(const std::string &lock_file);

// Reads the counter at `counter_path` (0 if it does not exist). Throws ProtocolError for a file
// that is not a decimal counter (it is never reset silently), SystemError if it cannot be read.
long long read_fence(const std::string &counter_path);

// Advances the counter (call only while holding the lock) and returns the new token. Throws
// SystemError / ProtocolError; the counter then keeps its old value.
long long advance_fence(const std::string &counter_path);

}  // namespace nativelock::file
