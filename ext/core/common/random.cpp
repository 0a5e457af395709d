#include "common/random.hpp"

#include <sys/random.h>

#include <cerrno>

#include "common/error.hpp"

namespace nativelock::random {

void fill(void *buf, std::size_t len) {
    auto *out = static_cast<unsigned char *>(buf);
    while (len > 0) {
        ssize_t got = getrandom(out, len, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw SystemError("getrandom", errno);
        }
        out += got;
        len -= static_cast<std::size_t>(got);
    }
}

std::string hex_token(std::size_t bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string raw(bytes, '\0');
    fill(raw.data(), raw.size());
    std::string hex;
    hex.reserve(bytes * 2);
    for (unsigned char c : raw) {
        hex.push_back(digits[c >> 4]);
        hex.push_back(digits[c & 15]);
    }
    return hex;
}

std::string base64_token(std::size_t bytes) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string raw(bytes, '\0');
    fill(raw.data(), raw.size());
    std::string out;
    out.reserve((bytes + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes; i += 3) {
        unsigned v = (static_cast<unsigned char>(raw[i]) << 16) |
                     (static_cast<unsigned char>(raw[i + 1]) << 8) |
                     static_cast<unsigned char>(raw[i + 2]);
        out.push_back(alphabet[(v >> 18) & 63]);
        out.push_back(alphabet[(v >> 12) & 63]);
        out.push_back(alphabet[(v >> 6) & 63]);
        out.push_back(alphabet[v & 63]);
    }
    if (i < bytes) {
        unsigned v = static_cast<unsigned char>(raw[i]) << 16;
        if (i + 1 < bytes) v |= static_cast<unsigned char>(raw[i + 1]) << 8;
        out.push_back(alphabet[(v >> 18) & 63]);
        out.push_back(alphabet[(v >> 12) & 63]);
        out.push_back(i + 1 < bytes ? alphabet[(v >> 6) & 63] : '=');
        out.push_back('=');
    }
    return out;
}

std::uint32_t mt_rand_like() {
    std::uint32_t v = 0;
    fill(&v, sizeof v);
    return v & 0x7fffffffu;
}

}  // namespace nativelock::random
