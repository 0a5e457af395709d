#include "file/fence.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/process.hpp"
#include "common/random.hpp"

namespace nativelock::file {

namespace {

constexpr int kTempNameAttempts = 16;

std::string directory_of(const std::string &path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

}  // namespace

std::string fence_path(const std::string &lock_file) {
    return lock_file + ".fence";
}

long long read_fence(const std::string &counter_path) {
    UniqueFd fd;
    for (;;) {
        fd.reset(::open(counter_path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (fd || errno != EINTR) break;
    }
    if (!fd) {
        if (errno == ENOENT) return 0;
        throw SystemError("cannot open fencing counter " + counter_path, errno);
    }
    struct stat st;
    if (::fstat(fd.get(), &st) != 0)
        throw SystemError("cannot stat fencing counter " + counter_path, errno);
    if (!S_ISREG(st.st_mode))
        throw ProtocolError("fencing counter " + counter_path + " is not a regular file");
    char buf[32];
    std::size_t got = 0;
    while (got < sizeof buf) {
        ssize_t n = ::read(fd.get(), buf + got, sizeof buf - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw SystemError("cannot read fencing counter " + counter_path, errno);
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    // Exactly "<digits>\n": anything else (empty, torn, edited) is refused, never taken as 0.
    long long value = 0;
    std::size_t i = 0;
    for (; i < got && buf[i] >= '0' && buf[i] <= '9'; ++i) {
        if (value > (LLONG_MAX - (buf[i] - '0')) / 10) {
            i = 0;
            break;
        }
        value = value * 10 + (buf[i] - '0');
    }
    if (i == 0 || i + 1 != got || buf[i] != '\n')
        throw ProtocolError("fencing counter " + counter_path + " is corrupt");
    return value;
}

long long advance_fence(const std::string &counter_path) {
    const long long current = read_fence(counter_path);
    if (current == LLONG_MAX)
        throw ProtocolError("fencing counter " + counter_path + " is exhausted");
    const long long next = current + 1;
    const std::string text = std::to_string(next) + "\n";

    UniqueFd fd;
    std::string temp;
    for (int i = 0; i < kTempNameAttempts && !fd; ++i) {
        temp = counter_path + ".tmp." + std::to_string(process::current_pid()) + "." +
               std::to_string(random::mt_rand_like());
        fd.reset(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
        if (!fd && errno != EEXIST && errno != EINTR)
            throw SystemError("cannot create " + temp, errno);
    }
    if (!fd) throw SystemError("cannot create a temp file for " + counter_path, EEXIST);
    auto fail = [&](const char *what, int err) {
        ::unlink(temp.c_str());
        throw SystemError(std::string(what) + " " + temp, err);
    };
    std::size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("cannot write", errno);
        }
        done += static_cast<std::size_t>(n);
    }
    // Durable before it replaces the counter (a machine crash must not leave an empty file), and
    // close() reports a failed write-back on NFS.
    if (::fsync(fd.get()) != 0) fail("cannot fsync", errno);
    if (::close(fd.release()) != 0) fail("cannot close", errno);
    // A holder whose lock was broken while it drew may meet a counter another holder advanced:
    // never move it back (a later acquisition would repeat a token). The remaining window, a
    // pause between this read and the rename, is the documented limit of a counter file.
    if (read_fence(counter_path) != current) {
        ::unlink(temp.c_str());
        throw ProtocolError("fencing counter " + counter_path + " moved while drawing");
    }
    if (::rename(temp.c_str(), counter_path.c_str()) != 0) fail("cannot rename", errno);
    // The rename itself durable: a token handed out is never handed out again after a crash.
    UniqueFd dir(::open(directory_of(counter_path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir) ::fsync(dir.get());  // best effort: some filesystems refuse fsync on directories
    return next;
}

}  // namespace nativelock::file
