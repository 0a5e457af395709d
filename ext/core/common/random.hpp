// Unpredictable values for lock tokens and temp-file names.
#pragma once

#include <cstdint>
#include <string>

namespace nativelock::random {

// Fills buf with len bytes from the kernel CSPRNG (getrandom).
void fill(void *buf, std::size_t len);

// 2*bytes lowercase hex characters.
std::string hex_token(std::size_t bytes = 16);

// base64 of `bytes` random bytes (the RedisLock gist's value format:
// base64_encode(random_bytes(15))).
std::string base64_token(std::size_t bytes = 15);

// A value in [0, 2^31 - 1], the range of PHP's mt_rand() used in the original temp-file names.
std::uint32_t mt_rand_like();

}  // namespace nativelock::random
