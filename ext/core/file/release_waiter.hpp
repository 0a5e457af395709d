// Blocks until a lock file may have been released: an inotify event naming it, the death of
// its local owner (pidfd), or the fallback poll interval, whichever comes first.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "common/deadline.hpp"
#include "common/fd.hpp"

namespace nativelock::file {

namespace test_hooks {
// The first poll interval of a wait on a local filesystem (50 ms), after which a waiting head
// looks at the lock file whatever happened; the longest becomes at least as long. Returns the
// one it replaces. Tests only.
std::chrono::milliseconds set_local_poll_start(std::chrono::milliseconds start);
}  // namespace test_hooks

// The inotify instance of this process (and thread), as `php --ri` shows it.
struct InotifyStatus {
    bool open = false;                    // an instance is open now
    std::size_t watches = 0;              // directories it watches now
    unsigned long long opened = 0;        // instances opened
    unsigned long long given_back = 0;    // instances closed by give_back_inotify()
    unsigned long long polled_waits = 0;  // waits that had no instance and polled instead
    int last_error = 0;  // errno of inotify_init1() if the last attempt failed, else 0
};
InotifyStatus inotify_status();

// At request end: closes the instance, if any, unless a wait used it less than `unused_for` ago;
// a kept one loses its watches. Instances count against the per-user
// fs.inotify.max_user_instances (128 by default): a worker whose waits stopped gives its
// instance back at the end of its next request (one that gets no request keeps it). The next
// wait opens a new one; one that failed before is tried again.
void give_back_inotify(std::chrono::steady_clock::duration unused_for = {});

// The errno of a failed inotify_init1() not yet reported, then 0: once per process, so the
// caller can say that waits fall back to polling.
int take_inotify_failure();

class ReleaseWaiter {
  public:
    // Watching starts here, before the caller's next attempt, so a release between a failed
    // attempt and the wait is not missed.
    ReleaseWaiter(const std::string &lock_path, bool local_filesystem);
    ReleaseWaiter(const ReleaseWaiter &) = delete;
    ReleaseWaiter &operator=(const ReleaseWaiter &) = delete;
    ~ReleaseWaiter();

    // Also wake when this pid exits (no-op if pidfd_open is unavailable).
    void watch_owner(pid_t pid);

    // Why wait() returned.
    enum class Wake {
        Released,     // an event naming the lock file
        OwnerExited,  // the watched owner's pidfd
        // the end of a poll interval, a signal, the deadline, lost events (the queue
        // overflowed), or the watched directory moved or deleted
        Other,
    };
    // Returns on a release event, the owner's death, the end of one poll interval, a signal, or
    // the deadline; the caller tries again in every case.
    Wake wait(const Deadline &deadline);

    // The first poll interval: how long the waiter may go on events alone.
    int first_poll_ms() const { return poll_start_ms_; }

  private:
    // Reads the queued events: Released if one named the lock file, Other if ours may have been
    // among them (events lost) or the directory went, else nothing (nullopt). `until_empty`
    // reads until none is left (before a watch is reused: the news of a moved directory must
    // not stay queued); otherwise the read that left room for more ends it.
    std::optional<Wake> drain_inotify(bool until_empty = false);

    std::string basename_;
    int inotify_fd_ = -1;  // the process-wide instance (see release_waiter.cpp); not owned
    int watch_ = -1;
    UniqueFd owner_pidfd_;
    pid_t watched_pid_ = 0;
    int poll_start_ms_;
    int poll_ms_;
    int poll_cap_ms_;
};

}  // namespace nativelock::file
