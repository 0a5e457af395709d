// The hard-link lock protocol on one lock file.
//
// Acquire: write the owner record to a unique temp file (O_CREAT|O_EXCL|O_NOFOLLOW), link() it
// to the lock file, count success by the temp file's link count reaching 2 (on NFS a lost
// reply can make link() report failure after it succeeded), remove the temp file. Release:
// unlink the lock file if it is still the inode we linked. A lock whose owner is provably dead
// is removed under flock() of that very inode, so concurrent breakers serialize and only the
// first one, still seeing the same inode at the path, removes it.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/deadline.hpp"
#include "common/fd.hpp"
#include "common/process.hpp"
#include "file/local_queue.hpp"

namespace nativelock::file {

// The original's return codes.
enum class Status { Acquired = 1, AlreadyLocked = -1, FailedToObtain = -2 };

// What a failed attempt learned about the holder, for the waiter.
struct Contention {
    std::optional<pid_t> local_owner;  // a live owner on this host whose death we can watch
    int error = 0;                     // errno behind FailedToObtain
};

// How a wait ended: the original's status, or `interrupted` when the caller's interrupted()
// asked to stop before the deadline (the caller runs what is pending, then waits again with the
// same deadline).
struct WaitResult {
    Status status;
    bool interrupted = false;
};

class LockFile {
  public:
    explicit LockFile(std::string path);
    LockFile(const LockFile &) = delete;
    LockFile &operator=(const LockFile &) = delete;

    const std::string &path() const { return path_; }

    // One attempt (breaking a provably dead owner on the way). `record` is the owner record.
    // On a local filesystem the record is written to an unnamed file (O_TMPFILE) that is linked
    // to the lock path; on shared filesystems (and where unnamed files are not available) to a
    // named temp file, "<lock file>.pid.<pid>.mtrand.<random>" as the original class does,
    // whose link count tells a lost reply to link() apart.
    Status try_acquire(const std::string &record, Contention *contention = nullptr);

    // Uses the named temp file everywhere, as on shared filesystems (tests of that path).
    void use_named_temp_file() { unnamed_ = 0; }

    // Waits for the lock in this host's queue for it (see LocalQueue): behind the head, until
    // the head's place passes to us; as the head, on inotify for the directory, the owner's
    // pidfd, and a short adaptive poll for releases made on other NFS clients. `interrupted` is
    // asked after every wake-up (a signal wakes the wait too); returning true ends the wait,
    // marked interrupted, and keeps the place in the queue for the next call.
    WaitResult acquire(const std::string &record, const Deadline &deadline,
                       const std::function<bool()> &interrupted, Contention *contention = nullptr);

    // Gives up a place kept by an interrupted acquire() that will not be resumed.
    void abandon_wait();

    // Whether this object holds the lock (and the calling process took it).
    bool held_by_us() const;
    // held_by_us(), and the lock file is still the one we linked: nobody removed it meanwhile
    // (Filelock's unlock(true), a force release, a take-over of what looked like a dead owner).
    // One lstat(); on NFS it sees another client's removal once the attribute cache does.
    // Throws SystemError when lstat() fails other than with ENOENT/ENOTDIR.
    bool held_and_linked() const;

    // Fencing: call right after an acquisition. Advances the counter file fence_path(path())
    // (file/fence.hpp) while we hold the lock and keeps the token until release. Throws
    // SystemError/ProtocolError (the lock stays held: the caller releases it).
    long long draw_fence();
    // The token of the acquisition we hold; 0 if none was drawn or the lock is not held.
    long long fence() const { return held_by_us() ? fence_ : 0; }

    // Overwrites `bytes` at `offset` of the record of the lock file we hold, if the file is
    // `record_size` bytes long (the timestamp of a record written as a wait began, rewritten once
    // the lock is taken: the original wrote a new record at every try). Local filesystems only,
    // through our own descriptor; the length never changes, but a reader racing the write may
    // see some bytes old and some new. Returns whether it was written.
    bool overwrite_record(std::size_t offset, std::string_view bytes,
                          std::size_t record_size) noexcept;

    // Removes the lock file if it is still ours. Returns whether it was removed. In a process
    // other than the one that acquired (after fork) it only forgets the lock.
    bool release();

    // Removes the lock file whoever owns it (unlock(true)).
    void force_release();

    // Whether someone holds the lock: the file exists and its owner is not provably dead.
    bool is_locked() const;

    // Whether the directory holding the lock file is on a local filesystem.
    bool on_local_filesystem() const;

    // How this process links unnamed record files: by their descriptor (linkat AT_EMPTY_PATH),
    // not tried yet (no unnamed file linked so far), or refused by the kernel for good (before
    // Linux 6.10 without CAP_DAC_READ_SEARCH, a security module): then through
    // /proc/thread-self/fd, or a named temp file where /proc is missing.
    enum class DescriptorLinking { Untried, Linked, Refused };
    static DescriptorLinking descriptor_linking();

  private:
    // A file holding the owner record, not linked yet, and the identity it takes at the lock
    // path once linked.
    struct RecordFile {
        UniqueFd fd;
        dev_t dev = 0;
        ino_t ino = 0;
        time_t written_at = 0;  // the second its record was written (its mtime, to the second)
    };

    // The device and inode of `fd` (a file just made in the lock's directory). Where the kernel
    // names the file's mount uniquely, also settles on_local_filesystem() from that mount,
    // without a statfs() of the directory. False, with errno, if the file cannot be examined.
    bool identify(int fd, dev_t *dev, ino_t *ino) const;
    // fstat(), through statx() where it can also settle the kind from the file's mount (as
    // identify()). Fills what fstat() does but the times other than mtime and the block counts.
    bool examine(int fd, struct stat *st) const;
    // on_local_filesystem() from `mount`, the unique id of the mount the file `fd` is on, unless
    // it was read from that mount already. A file made on another mount than the last one
    // (something mounted over the directory, or unmounted, since) makes it asked again: a holder
    // on a shared filesystem must never be judged by its pid as a local one.
    void settle_kind(int fd, std::uint64_t mount) const;
    // Links the record's file to the lock path: the named temp file at *temp_path, or with
    // temp_path null an unnamed one (open_unnamed()); temp_dev/temp_ino are its identify().
    // With judge_holder false a link refused by a present lock file ends the attempt at once:
    // the holder is neither read nor judged (see wait_as_head()).
    bool attempt_link(const std::string *temp_path, UniqueFd &temp_fd, dev_t temp_dev,
                      ino_t temp_ino, Contention *contention, Status *status,
                      bool judge_holder = true);
    RecordFile open_unnamed();
    RecordFile prepare_unnamed(const std::string &record);
    // try_acquire(), linking `*prepared` if it is open (and keeping there the unnamed file it
    // made, should the attempt fail).
    Status attempt(const std::string &record, Contention *contention, RecordFile *prepared,
                   bool judge_holder = true);
    // One attempt with the named temp file.
    Status attempt_named(const std::string &record, Contention *contention,
                         bool judge_holder = true);
    int link_unnamed(int fd) const;
    // Inspects the current holder; removes it if provably dead. Returns true if removed (the
    // caller should link again), false if the holder stands.
    bool break_if_dead(Contention *contention);
    UniqueFd keep_inode_open(UniqueFd &temp_fd) const;
    WaitResult wait_as_head(const std::string &record, const Deadline &deadline,
                            const std::function<bool()> &interrupted, Contention *contention,
                            bool promoted = false);

    std::string path_;
    mutable int local_fs_ = -1;  // -1 unknown, else 0/1
    // The unique mount id local_fs_ was read from; 0 while it is unknown or came from statfs().
    mutable std::uint64_t kind_mount_ = 0;
    int unnamed_ = -1;  // unnamed files usable here: -1 unknown, else 0/1
    bool held_ = false;
    long long fence_ = 0;
    process::Tag owner_tag_;
    dev_t dev_ = 0;
    ino_t ino_ = 0;
    // Kept open while held: an inode that is still open cannot be freed and its number
    // reused, so dev/ino at the path identify our lock file exactly.
    UniqueFd held_fd_;
    std::unique_ptr<LocalQueue> queue_;  // created on the first wait
};

}  // namespace nativelock::file
