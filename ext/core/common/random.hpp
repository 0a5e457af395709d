// Unpredictable values for lock tokens and temp-file names.
#pragma once

#include <cstdint>
#include <string>

namespace nativelock::random {

// Fills buf with len bytes from the kernel CSPRNG (getrandom). Requests of up to a quarter of
// kBufferBytes are served from a per-thread buffer refilled by one getrandom() of kBufferBytes
// (a lock token costs no system call of its own); a process never hands out bytes buffered
// before it was forked. Larger requests go to the kernel directly.
constexpr std::size_t kBufferBytes = 1024;
void fill(void *buf, std::size_t len);

// 2*bytes lowercase hex characters.
std::string hex_token(std::size_t bytes = 16);
// The same into out[0 .. 2 * bytes) (no terminator): no allocation.
void hex_token_to(char *out, std::size_t bytes);

// base64 of `bytes` random bytes (the RedisLock gist's value format:
// base64_encode(random_bytes(15))).
std::string base64_token(std::size_t bytes = 15);

// A value in [0, 2^31 - 1], the range of PHP's mt_rand() used in the original temp-file names.
std::uint32_t mt_rand_like();

}  // namespace nativelock::random
