<?php

/**
 * @generate-class-entries
 */

/**
 * Result of try_lock()/lock(): the lock was obtained.
 * @var int
 * @cvalue LOCKFILE_SUCCESS
 */
const LOCKFILE_SUCCESS = 1;
/**
 * Result of try_lock()/lock(): someone else holds the lock (or lock()'s timeout passed).
 * @var int
 * @cvalue LOCKFILE_ERROR_ALREADY_LOCKED
 */
const LOCKFILE_ERROR_ALREADY_LOCKED = -1;
/**
 * Result of try_lock()/lock(): the lock was free but the lock file could not be written
 * (missing or unwritable $lockpath, disk full, filesystem without hard links).
 * @var int
 * @cvalue LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK
 */
const LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK = -2;

/**
 * @not-serializable
 * A named lock shared by every process that sees the same $lockpath directory, including
 * over NFS: a drop-in, native replacement for the foddex.net Filelock class.
 */
class Filelock
{
    /**
     * Directory prefix of the lock files, concatenated as is: end it with "/".
     * Default: the INI setting nativelock.lockpath ("/tmp/").
     * @var string
     */
    public static $lockpath = '/tmp/';

    public function __construct(string $name) {}

    /**
     * Whether someone (not necessarily us) holds the lock. A lock whose owner is provably
     * dead counts as free.
     * @return bool
     */
    public function is_locked() {}

    /**
     * One attempt: LOCKFILE_SUCCESS, LOCKFILE_ERROR_ALREADY_LOCKED or
     * LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK.
     * @return int
     */
    public function try_lock() {}

    /**
     * Waits until the lock is ours (no limit by default), woken by the release itself.
     * Returns LOCKFILE_ERROR_ALREADY_LOCKED if $timeout seconds pass first.
     * @return int
     */
    public function lock(?float $timeout = null) {}

    /**
     * Releases the lock if this object holds it; with $force, removes the lock file
     * whoever holds it.
     * @return void
     */
    public function unlock(mixed $force = false) {}

    /**
     * The owner record written into the lock file (serialized). Override to add data.
     * @return array
     */
    public function bake_data() {}

    /**
     * The fencing token of the acquisition this object holds: greater than the token of every
     * earlier fenced acquisition of the same lock file, by any process on any host sharing the
     * directory. Drawn only when the INI setting nativelock.fencing is on, from the counter file
     * "<lock file>.fence" beside the lock file (advanced while holding: temp file, fsync,
     * rename). A lock whose token cannot be drawn is not taken (try_lock()/lock() return
     * LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK with a warning).
     * @throws RuntimeException if this object does not hold the lock, or took it with
     *         nativelock.fencing off
     */
    public function getFencingToken(): int {}
}
