// Blocks until a lock file may have been released: an inotify event naming it, the death of
// its local owner (pidfd), or the fallback poll interval, whichever comes first.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "common/deadline.hpp"
#include "common/fd.hpp"

namespace nativelock::file {

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

    // Returns on a release event, the owner's death, the end of one poll interval, a signal, or
    // the deadline; the caller tries again in every case.
    void wait(const Deadline &deadline);

  private:
    // Reads the queued events; true if one was ours. `until_empty` reads until none is left
    // (before a watch is reused: the news of a moved directory must not stay queued); otherwise
    // the read that left room for more ends it.
    bool drain_inotify(bool until_empty = false);

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
