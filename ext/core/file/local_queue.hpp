// A first-come-first-served queue of the processes of this host (and user) that wait for one
// lock file, so that a release wakes one waiter instead of all of them, and a newcomer does not
// take the lock ahead of those already waiting (but in the barging window, below).
//
// The queue is an OFD byte-range lock (F_OFD_SETLKW) on one byte of a per-user queue file, the
// byte chosen by a hash of the lock path. Since Linux 4.20 the kernel keeps conflicting waiters
// of a range in arrival order and wakes only the next one; a waiter that dies leaves the queue
// with its file descriptor. The process that holds the byte is the queue's head: only it
// watches the lock file. The queue decides order only, never ownership: the hard-link protocol
// still decides who holds the lock, so a missing or misbehaving queue costs fairness, not safety.
//
// The kernel does not hand a released byte over: it wakes the next waiter, which takes the byte
// when it runs, and a request made in between (a newcomer's) gets it first. So every process in
// the queue also read-locks a presence byte of the slot; a newcomer that finds others present
// and the place byte free waits, briefly, for the woken waiter to take it, and queues behind.
// The newcomer becomes present only after that wait, so that two newcomers never wait for each
// other.
//
// A strict queue costs a wake-up per acquisition: the released lock waits until the head's
// process runs, which on a virtual machine's idle CPU takes 100 µs and more. So, as in Go's
// sync.Mutex, a newcomer (a holder that asks again, too) may still try a free lock while the
// head is fresh: for the first millisecond of each headship. Once the head has been head for
// longer, it is starving, and newcomers queue behind it. Where a headship began lives in a
// small table at the start of the queue file (the byte locks ignore the file's content). Like
// the queue, the table decides order only.
//
// F_OFD_SETLKW has no timeout, and PHP must serve signals while it waits: the blocking call runs
// in a thread (all signals blocked, so PHP's handlers keep running in the main thread), which
// reports through an eventfd and is cancelled when the wait ends early. The thread is kept from
// wait to wait (one per process, or per PHP thread); a wait that finds it busy starts its own.
#pragma once

#include <pthread.h>
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "common/deadline.hpp"
#include "common/fd.hpp"
#include "common/process.hpp"

namespace nativelock::file {

namespace test_hooks {
// How long a newcomer waits for a passing place (20 ms). Tests only.
void set_passing_place_wait(std::chrono::milliseconds wait);
// Called by join() between taking a descriptor and registering the place (nullptr: none), to
// fork in that window. Tests only.
void set_before_register(void (*hook)());
// How long after a headship began newcomers may still try the lock (1 ms). Tests only.
void set_barging_window(std::chrono::microseconds window);
}  // namespace test_hooks

// The errno of this process's last failed write to the headship table, 0 if the last one
// succeeded or none was made (for phpinfo() in this process; a fresh `php --ri` has made none).
// While the table cannot be written (a full /dev/shm), newcomers find no fresh head and the
// queue is strictly first come first served.
int headship_write_error();

class KeptWaiter;  // the process's (PHP thread's) waiting thread, local_queue.cpp

class LocalQueue {
  public:
    // While one lives, this thread's queue operations key their descriptor caches on the
    // effective uid asked at its start (the queue file is per uid; asking at each of them cost
    // six geteuid() calls per queued acquisition). One acquire() is one scope; PHP's signal
    // handlers run between scopes, so a posix_seteuid() of theirs is seen by the next.
    class EuidScope {
      public:
        EuidScope();
        ~EuidScope();
        EuidScope(const EuidScope &) = delete;
        EuidScope &operator=(const EuidScope &) = delete;
    };

    explicit LocalQueue(const std::string &lock_path);
    LocalQueue(const LocalQueue &) = delete;
    LocalQueue &operator=(const LocalQueue &) = delete;
    ~LocalQueue() { leave(); }

    // Whether some other process of this host is queued for this lock (one fcntl over the
    // place byte and the presence byte beside it). A newcomer that finds waiters joins behind
    // them instead of trying the lock.
    bool others_waiting() const;

    // Whether the head of this queue became the head less than the barging window ago: a
    // newcomer that finds others waiting may then try a free lock before it queues. False when
    // nobody has published a headship for this lock (a head of an older version, a table
    // that could not be written): newcomers queue.
    bool head_is_fresh() const;

    // Takes a place at the end of the queue. Returns false if the queue is unavailable (no
    // queue file, no thread): the caller then waits as the head would, unqueued. May first
    // wait up to 20 ms (not past `deadline`) for a place that is passing to a woken waiter.
    bool join(const Deadline &deadline = Deadline::never());
    // Whether this process has a place (a place inherited across fork is dropped here).
    bool joined();
    bool is_head() const { return head_; }

    // Waits until this process is the head, a signal arrives, `slice_ms` passes, or the
    // deadline; returns is_head().
    bool wait_for_turn(const Deadline &deadline, int slice_ms);

    // Whether the waiting thread has taken our place and said so, not yet seen by
    // wait_for_turn(). For tests.
    bool place_reported() const;

    // Gives the place up (the head's byte goes to the next waiter). Safe to call in any state;
    // after fork the child only forgets the parent's place.
    void leave();

    // Words in the queue file's headship table (a slot's word: slot % kHeadshipEntries).
    static constexpr std::size_t kHeadshipEntries = 4096;

    // For tests: the byte this lock path queues on.
    std::uint64_t slot() const { return slot_; }

  private:
    friend class PlaceRegistry;
    enum class Joined { Yes, No, Forked };
    Joined join_once(const Deadline &deadline, unsigned generation);
    void abandon_shared_place();
    static void *take_place(void *self);
    // Notes in the shared table that a headship of this queue begins now.
    void publish_headship() const;
    void stop_thread();
    void wait_for_passing_place(int fd, const Deadline &deadline) const;
    // In a forked child: closes the inherited descriptors and forgets the place, leaving the
    // parent's place (and thread) alone.
    void drop_inherited();

    std::uint64_t slot_;
    bool joined_ = false;
    bool head_ = false;
    process::Tag joined_tag_;
    UniqueFd place_fd_;     // the open file description whose byte lock is our place
    uid_t place_euid_ = 0;  // the effective uid whose queue file place_fd_ is
    UniqueFd ready_fd_;     // eventfd the thread signals once the byte is ours
    // Who takes our place byte while we wait behind the head: the process's kept thread, or a
    // thread of our own (while the kept one serves another wait: a signal handler's lock()).
    enum class WaitingBy { Nobody, KeptThread, OwnThread };
    WaitingBy waiting_by_ = WaitingBy::Nobody;
    // The kept thread's owner: that of the thread that joined. A queue is used by one thread
    // (as a Filelock object is); another thread's leave() would touch this one's thread_local.
    KeptWaiter *kept_ = nullptr;
    pthread_t thread_{};  // our own
    // errno of the thread's fcntl: a head whose queue failed has no headship to pass on
    std::atomic<int> thread_error_{0};
};

}  // namespace nativelock::file
