#include "file/release_waiter.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "common/process.hpp"

namespace nativelock::file {
namespace {

// Local filesystems deliver inotify events for every release, so the poll is only a safety
// net; on shared filesystems releases made by other clients raise no event here.
std::atomic<int> local_poll_start_ms{50};  // test_hooks::set_local_poll_start()
constexpr int kLocalPollCapMs = 500;
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

// One inotify instance per process and thread, opened by the first wait and kept until
// give_back_inotify() (request end, once unused for a while): closing an instance that has
// watches waits for the kernel to retire them (an RCU grace period: milliseconds on a busy
// machine), which would otherwise land on every hand-off, or, closed at the end of every
// request that waited, on every request of a hot lock. Watches stay while a request runs
// (adding one for a watched directory is idempotent) and are removed at its end; events that
// arrive while nobody waits are drained before the next attempt. Only the head of a lock's queue
// waits here, so a host needs about one instance per contended lock, not one per waiting process.
class InotifyHub {
  public:
    int fd() {
        renew_after_fork();
        if (!fd_ && !failed_) {
            fd_.reset(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
            if (fd_) {
                ++status_.opened;
                status_.last_error = 0;
            } else {
                failed_ = true;
                status_.last_error = errno;
                if (!reported_) unreported_error_ = errno;
            }
        }
        last_used_ = std::chrono::steady_clock::now();
        return fd_.get();
    }

    void note_polled_wait() { ++status_.polled_waits; }

    // A wait ended: the instance counts as used until now.
    void touch() { last_used_ = std::chrono::steady_clock::now(); }

    void give_back(std::chrono::steady_clock::duration unused_for) {
        renew_after_fork();
        if (fd_ && std::chrono::steady_clock::now() - last_used_ < unused_for) {
            // Kept, without watches: events would pile up while the worker idles (up to the
            // queue's limit, then lost). Removing a watch is cheap (the kernel frees it later);
            // the next wait adds it again.
            for (const auto &[dir, wd] : watches_) ::inotify_rm_watch(fd_.get(), wd);
            for (int wd : forgotten_) ::inotify_rm_watch(fd_.get(), wd);
            watches_.clear();
            forgotten_.clear();
            return;
        }
        if (fd_) ++status_.given_back;
        fd_.reset();
        watches_.clear();
        forgotten_.clear();
        failed_ = false;
    }

    InotifyStatus status() {
        renew_after_fork();
        InotifyStatus copy = status_;
        copy.open = static_cast<bool>(fd_);
        copy.watches = watches_.size();
        return copy;
    }

    int take_failure() {
        renew_after_fork();
        if (unreported_error_) reported_ = true;
        return std::exchange(unreported_error_, 0);
    }

    int watch(const std::string &dir) {
        int inotify = fd();
        if (inotify < 0) return -1;
        auto it = watches_.find(dir);
        if (it != watches_.end()) return it->second;
        if (watches_.size() >= kMaxWatches) {
            ::inotify_rm_watch(inotify, watches_.begin()->second);
            watches_.erase(watches_.begin());
        }
        int wd = ::inotify_add_watch(
            inotify, dir.c_str(),
            IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
        if (wd >= 0) watches_[dir] = wd;
        return wd;
    }

    // A directory renamed away keeps its watch (the kernel follows the inode); a new directory
    // created at the old path would never be watched. Drop it, so the next watch() adds one
    // for whatever is at the path then.
    void drop(int wd) {
        forget(wd);
        if (fd_) ::inotify_rm_watch(fd_.get(), wd);
    }

    // Events were lost (the queue overflowed): among them may be the news that a watched
    // directory went away. Every watch is asked for again (for a directory still watched, the
    // kernel returns the same one).
    void forget_all() {
        for (const auto &[dir, wd] : watches_) forgotten_.push_back(wd);  // removed at request end
        watches_.clear();
    }

    // A watch removed by the kernel (directory deleted) must be added again next time.
    void forget(int wd) {
        for (auto it = watches_.begin(); it != watches_.end(); ++it) {
            if (it->second == wd) {
                watches_.erase(it);
                return;
            }
        }
    }

  private:
    static constexpr std::size_t kMaxWatches = 64;

    // A forked child shares the parent's instance (and its event queue): it opens its own.
    void renew_after_fork() {
        const process::Tag tag = process::current_tag();
        if (tag != owner_) {
            fd_.reset();  // drops only our reference: the parent's instance lives on
            watches_.clear();
            forgotten_.clear();
            failed_ = false;
            status_ = InotifyStatus{};
            unreported_error_ = 0;
            reported_ = false;
            owner_ = tag;
        }
    }

    UniqueFd fd_;
    std::chrono::steady_clock::time_point last_used_;  // by the latest wait
    bool failed_ = false;  // until give_back(): not retried on every wait
    process::Tag owner_;
    std::map<std::string, int> watches_;
    std::vector<int> forgotten_;  // watches forgotten after an overflow, still in the kernel
    InotifyStatus status_;
    int unreported_error_ = 0;
    bool reported_ = false;  // not reset by give_back(): the notice is once per process
};

InotifyHub &hub() {
    static thread_local InotifyHub instance;
    return instance;
}

}  // namespace

namespace test_hooks {
std::chrono::milliseconds set_local_poll_start(std::chrono::milliseconds start) {
    return std::chrono::milliseconds(
        local_poll_start_ms.exchange(static_cast<int>(start.count()), std::memory_order_relaxed));
}
}  // namespace test_hooks

InotifyStatus inotify_status() {
    return hub().status();
}
void give_back_inotify(std::chrono::steady_clock::duration unused_for) {
    hub().give_back(unused_for);
}
int take_inotify_failure() {
    return hub().take_failure();
}

ReleaseWaiter::ReleaseWaiter(const std::string &lock_path, bool local_filesystem) {
    auto slash = lock_path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : lock_path.substr(0, slash ? slash : 1);
    basename_ = slash == std::string::npos ? lock_path : lock_path.substr(slash + 1);

    // inotify sees releases made through this kernel on any filesystem, NFS included; only
    // releases by other NFS clients need the poll.
    // Stale events from earlier waits are drained first: among them may be the news that the
    // directory we watch was moved or deleted, which must retire its watch before we reuse it.
    inotify_fd_ = hub().fd();
    if (inotify_fd_ >= 0) drain_inotify(/*until_empty=*/true);
    watch_ = hub().watch(dir);
    if (watch_ < 0) {
        inotify_fd_ = -1;
        hub().note_polled_wait();
    }
    bool events_suffice = watch_ >= 0 && local_filesystem;
    const int local_start = local_poll_start_ms.load(std::memory_order_relaxed);
    poll_start_ms_ = events_suffice ? local_start : kSharedPollStartMs;
    poll_cap_ms_ = events_suffice ? std::max(kLocalPollCapMs, local_start) : kSharedPollCapMs;
    poll_ms_ = poll_start_ms_;
}

ReleaseWaiter::~ReleaseWaiter() {
    if (inotify_fd_ >= 0) hub().touch();
}

void ReleaseWaiter::watch_owner(pid_t pid) {
    if (pid == watched_pid_ && owner_pidfd_) return;
    owner_pidfd_.reset(pidfd_open(pid));
    watched_pid_ = owner_pidfd_ ? pid : 0;
}

std::optional<ReleaseWaiter::Wake> ReleaseWaiter::drain_inotify(bool until_empty) {
    alignas(struct inotify_event) char buf[8192];
    std::optional<Wake> ours;
    // A lost or a directory event outranks a named one: the caller then judges the holder.
    auto note = [&ours](Wake seen) {
        if (!ours || seen == Wake::Other) ours = seen;
    };
    for (;;) {
        ssize_t n = ::read(inotify_fd_, buf, sizeof buf);
        if (n <= 0) break;
        for (char *p = buf; p < buf + n;) {
            auto *event = reinterpret_cast<struct inotify_event *>(p);
            if (event->mask & IN_IGNORED) hub().forget(event->wd);
            if (event->mask & (IN_MOVE_SELF | IN_DELETE_SELF)) hub().drop(event->wd);
            if (event->mask & IN_Q_OVERFLOW) {
                hub().forget_all();
                note(Wake::Other);  // events were lost: ours may have been among them
            } else if (event->wd != watch_) {
                // another directory's watch
            } else if (event->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
                note(Wake::Other);
            } else if (event->len > 0 && std::strcmp(event->name, basename_.c_str()) == 0) {
                note(Wake::Released);
            }
            p += sizeof(struct inotify_event) + event->len;
        }
        // A read copies every queued event that fits: room left for the largest one (a name of
        // NAME_MAX; FUSE allows longer) means the queue was empty, and a later event wakes the
        // next poll(). Spares a read on each wake-up.
        if (!until_empty &&
            static_cast<std::size_t>(n) + sizeof(struct inotify_event) + NAME_MAX + 1 <= sizeof buf)
            break;
    }
    return ours;
}

ReleaseWaiter::Wake ReleaseWaiter::wait(const Deadline &deadline) {
    Deadline poll_end = Deadline::after(poll_ms_ / 1000.0);
    for (;;) {
        struct pollfd fds[2];
        nfds_t count = 0;
        int inotify_slot = -1;
        if (inotify_fd_ >= 0) {
            inotify_slot = static_cast<int>(count);
            fds[count++] = {inotify_fd_, POLLIN, 0};
        }
        int pidfd_slot = -1;
        if (owner_pidfd_) {
            pidfd_slot = static_cast<int>(count);
            fds[count++] = {owner_pidfd_.get(), POLLIN, 0};
        }
        int timeout = std::min(deadline.remaining_ms(poll_ms_), poll_end.remaining_ms(poll_ms_));
        int ready = ::poll(fds, count, timeout);
        if (ready < 0) {
            // A signal (PHP timeouts, pcntl): let the caller look at its interrupt flag.
            return Wake::Other;
        }
        if (ready == 0) {
            poll_ms_ = std::min(poll_cap_ms_, poll_ms_ * 2);
            return Wake::Other;
        }
        if (pidfd_slot >= 0 && (fds[pidfd_slot].revents & (POLLIN | POLLHUP | POLLERR))) {
            owner_pidfd_.reset();
            watched_pid_ = 0;
            return Wake::OwnerExited;
        }
        if (inotify_slot >= 0 && (fds[inotify_slot].revents & POLLIN)) {
            if (const std::optional<Wake> ours = drain_inotify()) {
                poll_ms_ = poll_start_ms_;
                return *ours;
            }
        }
        // Events for other files in the directory: keep waiting out this poll interval.
        if (poll_end.expired() || deadline.expired()) {
            return Wake::Other;
        }
    }
}

}  // namespace nativelock::file
