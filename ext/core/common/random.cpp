#include "common/random.hpp"

#include <pthread.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "common/error.hpp"
#include "common/process.hpp"

namespace nativelock::random {

namespace {

void fill_from_kernel(unsigned char *out, std::size_t len) {
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

// Bytes drawn from the kernel CSPRNG in one getrandom() and handed out in order, so that a
// lock token does not cost a system call of its own. One buffer per thread (ZTS). Bytes are
// wiped as they are handed out, so the buffer never holds a value already in use.
//
// A forked child must never hand out its parent's bytes (both would draw the same tokens): the
// buffer belongs to the pid that filled it and is thrown away by any other process, and the
// atfork handler empties the forking thread's buffer in the child as well (a later process
// that happens to reuse the filler's pid still starts empty).
struct Buffer {
    unsigned char bytes[kBufferBytes];
    std::size_t next = kBufferBytes;  // bytes[next..] are unused
    process::Tag owner;

    void discard() {
        std::memset(bytes, 0, sizeof bytes);
        next = kBufferBytes;
        owner = process::Tag{};
    }
};

thread_local Buffer buffer;
std::once_flag atfork_registered;

void discard_in_child() {
    buffer.discard();
}

}  // namespace

void fill(void *buf, std::size_t len) {
    auto *out = static_cast<unsigned char *>(buf);
    if (len > kBufferBytes / 4) {
        fill_from_kernel(out, len);
        return;
    }
    std::call_once(atfork_registered, [] { pthread_atfork(nullptr, nullptr, discard_in_child); });
    Buffer &b = buffer;
    const process::Tag tag = process::current_tag();
    if (b.owner != tag) b.discard();
    if (kBufferBytes - b.next < len) {
        b.discard();
        fill_from_kernel(b.bytes, kBufferBytes);
        b.next = 0;
        b.owner = tag;
    }
    std::memcpy(out, b.bytes + b.next, len);
    std::memset(b.bytes + b.next, 0, len);
    b.next += len;
}

namespace {

// `count` random bytes: on the stack for the token sizes in use, on the heap beyond.
class RandomBytes {
  public:
    explicit RandomBytes(std::size_t count) {
        if (count > sizeof on_stack_) {
            on_heap_.resize(count);
            bytes_ = reinterpret_cast<unsigned char *>(on_heap_.data());
        }
        fill(bytes_, count);
    }
    RandomBytes(const RandomBytes &) = delete;
    RandomBytes &operator=(const RandomBytes &) = delete;
    const unsigned char *data() const { return bytes_; }

  private:
    unsigned char on_stack_[64];
    std::string on_heap_;
    unsigned char *bytes_ = on_stack_;
};

}  // namespace

void hex_token_to(char *out, std::size_t bytes) {
    static const char digits[] = "0123456789abcdef";
    RandomBytes random(bytes);
    const unsigned char *raw = random.data();
    for (std::size_t i = 0; i < bytes; ++i) {
        out[2 * i] = digits[raw[i] >> 4];
        out[2 * i + 1] = digits[raw[i] & 15];
    }
}

std::string hex_token(std::size_t bytes) {
    std::string hex(bytes * 2, '\0');
    hex_token_to(hex.data(), bytes);
    return hex;
}

std::string base64_token(std::size_t bytes) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    RandomBytes random(bytes);
    const unsigned char *raw = random.data();
    std::string out;
    out.reserve((bytes + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes; i += 3) {
        unsigned v = (raw[i] << 16) | (raw[i + 1] << 8) | raw[i + 2];
        out.push_back(alphabet[(v >> 18) & 63]);
        out.push_back(alphabet[(v >> 12) & 63]);
        out.push_back(alphabet[(v >> 6) & 63]);
        out.push_back(alphabet[v & 63]);
    }
    if (i < bytes) {
        unsigned v = raw[i] << 16;
        if (i + 1 < bytes) v |= raw[i + 1] << 8;
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
