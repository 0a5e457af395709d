#include "file/release_waiter.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace nativelock::file {
namespace {

// Local filesystems deliver inotify events for every release, so the poll is only a safety
// net; on shared filesystems releases made by other clients raise no event here.
constexpr int kLocalPollStartMs = 50, kLocalPollCapMs = 500;
constexpr int kSharedPollStartMs = 2, kSharedPollCapMs = 100;

int pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

}  // namespace

ReleaseWaiter::ReleaseWaiter(const std::string &lock_path, bool local_filesystem) {
    auto slash = lock_path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : lock_path.substr(0, slash ? slash : 1);
    basename_ = slash == std::string::npos ? lock_path : lock_path.substr(slash + 1);

    // inotify sees releases made through this kernel on any filesystem, NFS included; only
    // releases by other NFS clients need the poll.
    {
        inotify_.reset(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
        if (inotify_ && ::inotify_add_watch(inotify_.get(), dir.c_str(),
                                            IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF |
                                                IN_MOVE_SELF | IN_ONLYDIR) < 0) {
            inotify_.reset();
        }
    }
    bool events_suffice = inotify_ && local_filesystem;
    poll_start_ms_ = events_suffice ? kLocalPollStartMs : kSharedPollStartMs;
    poll_cap_ms_ = events_suffice ? kLocalPollCapMs : kSharedPollCapMs;
    poll_ms_ = poll_start_ms_;
}

void ReleaseWaiter::watch_owner(pid_t pid) {
    if (pid == watched_pid_ && owner_pidfd_) return;
    owner_pidfd_.reset(pidfd_open(pid));
    watched_pid_ = owner_pidfd_ ? pid : 0;
}

bool ReleaseWaiter::drain_inotify() {
    alignas(struct inotify_event) char buf[8192];
    bool ours = false;
    for (;;) {
        ssize_t n = ::read(inotify_.get(), buf, sizeof buf);
        if (n <= 0) break;
        for (char *p = buf; p < buf + n;) {
            auto *event = reinterpret_cast<struct inotify_event *>(p);
            if (event->mask & (IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
                ours = true;
            } else if (event->len > 0 && std::strcmp(event->name, basename_.c_str()) == 0) {
                ours = true;
            }
            p += sizeof(struct inotify_event) + event->len;
        }
    }
    return ours;
}

ReleaseWaiter::Wake ReleaseWaiter::wait(const Deadline &deadline) {
    Deadline poll_end = Deadline::after(poll_ms_ / 1000.0);
    for (;;) {
        struct pollfd fds[2];
        nfds_t count = 0;
        if (inotify_) fds[count++] = {inotify_.get(), POLLIN, 0};
        int pidfd_slot = -1;
        if (owner_pidfd_) {
            pidfd_slot = static_cast<int>(count);
            fds[count++] = {owner_pidfd_.get(), POLLIN, 0};
        }
        int timeout = std::min(deadline.remaining_ms(poll_ms_), poll_end.remaining_ms(poll_ms_));
        int ready = ::poll(fds, count, timeout);
        if (ready < 0) {
            // A signal (PHP timeouts, pcntl): let the caller look at its interrupt flag.
            return Wake::Poll;
        }
        if (ready == 0) {
            if (deadline.expired()) return Wake::Deadline;
            poll_ms_ = std::min(poll_cap_ms_, poll_ms_ * 2);
            return Wake::Poll;
        }
        if (pidfd_slot >= 0 && (fds[pidfd_slot].revents & (POLLIN | POLLHUP | POLLERR))) {
            owner_pidfd_.reset();
            watched_pid_ = 0;
            return Wake::OwnerDied;
        }
        if (inotify_ && (fds[0].revents & POLLIN) && drain_inotify()) {
            poll_ms_ = poll_start_ms_;
            return Wake::Released;
        }
        // Events for other files in the directory: keep waiting out this poll interval.
        if (poll_end.expired() || deadline.expired()) {
            return deadline.expired() ? Wake::Deadline : Wake::Poll;
        }
    }
}

}  // namespace nativelock::file
