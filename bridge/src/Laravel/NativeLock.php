<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Support\Str;
use Nativelock\Backend;
use Nativelock\FileBackend;
use Nativelock\Lock as NativeLockHandle;
use Nativelock\LockException;
use Nativelock\MysqlBackend;
use Nativelock\RedisBackend;

/**
 * A Laravel cache lock on nativelock. On Redis (RedisBackend::FORMAT_PLAIN) it is wire-compatible
 * with Laravel's own RedisLock: key = cache prefix + name, value = owner, compare-and-delete
 * release, so both exclude each other and either may release the other's lock with the owner.
 *
 * block($seconds) waits natively and wakes on release (no 250 ms sleeps);
 * betweenBlockedAttemptsSleepFor() is accepted and has no effect.
 *
 * Lifetime: a lock taken by get($callback) or block($seconds, $callback) is scoped — Laravel
 * releases it after the callback, and nativelock releases it at request end if the callback
 * never returns (fatal error, exit). A lock taken without a callback (acquire(), get(),
 * block($seconds)) is the application's to end, as in Laravel: it outlives the request until
 * release(), forceRelease() or its TTL, so "at most once per hour" locks, ShouldBeUnique jobs and
 * restoreLock() hand-offs keep working.
 *
 * Not re-entrant, as Laravel: get() on a lock this object holds returns false, and block() waits
 * until that hold lapses or its time is up; once the TTL has passed or the lock was
 * force-released, the object takes it again (asks the backend).
 *
 * Fork: in a forked child the parent's lock is not held — release() there returns false and
 * leaves it alone; acquiring with an inherited object takes the lock under a new owner token. With $releaseAtRequestEnd = true those locks are also
 * released at request end, unless owner() was called (the owner token left the process: it may
 * be restored elsewhere).
 */
class NativeLock extends Lock
{
    protected Backend $backend;
    protected NativeLockHandle $lock;
    protected bool $releaseAtRequestEnd;
    protected bool $ownerShared = false;
    /** The process the owner and the handle were made in (a forked child makes its own). */
    protected int $pid;

    /**
     * @param string $name the full key (cache prefix + name)
     * @param int $seconds TTL; 0 = no expiry
     */
    public function __construct(Backend $backend, $name, $seconds, $owner = null, bool $releaseAtRequestEnd = false)
    {
        if (!\is_string($name) || '' === $name) {
            throw new \InvalidArgumentException('A lock name must be a non-empty string.');
        }
        if (!is_numeric($seconds) || $seconds < 0 || is_nan((float) $seconds)) {
            throw new \InvalidArgumentException(sprintf('Lock "%s": seconds must be a number >= 0 (0 = no expiry), %s given.', $name, get_debug_type($seconds)));
        }
        if (null !== $owner && (!\is_string($owner) && !\is_int($owner) || '' === (string) $owner)) {
            throw new \InvalidArgumentException(sprintf('Lock "%s": the owner must be a non-empty string or null.', $name));
        }
        parent::__construct($name, $seconds, null === $owner ? null : (string) $owner);
        $this->backend = $backend;
        $this->releaseAtRequestEnd = $releaseAtRequestEnd;
        $this->pid = getmypid();
        $this->lock = $this->newHandle();
    }

    public function acquire()
    {
        return $this->take(0.0, false);
    }

    public function get($callback = null)
    {
        $scoped = \is_callable($callback);
        if (!$this->take(0.0, $scoped)) {
            return false;
        }
        if ($scoped) {
            try {
                return $callback();
            } finally {
                $this->release();
            }
        }

        return true;
    }

    /**
     * Waits up to $seconds natively (woken by the release).
     *
     * @throws LockTimeoutException
     */
    public function block($seconds, $callback = null)
    {
        if (!is_numeric($seconds) || $seconds < 0 || is_nan((float) $seconds)) {
            throw new \InvalidArgumentException(sprintf('Lock "%s": block() takes seconds >= 0.', $this->name));
        }
        $scoped = \is_callable($callback);
        if (!$this->take((float) $seconds, $scoped)) {
            throw new LockTimeoutException();
        }
        if ($scoped) {
            try {
                return $callback();
            } finally {
                $this->release();
            }
        }

        return true;
    }

    public function release()
    {
        try {
            return $this->handle()->release();
        } catch (LockException $e) {
            throw new \RuntimeException(sprintf('Releasing lock "%s" failed: %s', $this->name, $e->getMessage()), 0, $e);
        }
    }

    public function forceRelease()
    {
        if ($this->backend instanceof RedisBackend) {
            $this->backend->forceRelease($this->name);
            if ($this->lock->isAcquired()) {
                $this->lock->release(); // ours is gone: forget it, so that get() takes the lock anew
            }

            return;
        }
        if ($this->backend instanceof FileBackend) {
            // Filelock's unlock(force): remove the lock file whoever holds it (waiters are woken by inotify).
            $file = rtrim($this->backend->getDirectory(), '/').'/'.preg_replace('/\W/', '_', $this->name).'.lock';
            if (!@unlink($file) && file_exists($file)) {
                throw new \RuntimeException(sprintf('Force-releasing lock "%s" failed: the lock file cannot be removed.', $this->name));
            }
            $this->handle()->release();

            return;
        }
        if ($this->backend instanceof MysqlBackend) {
            // A GET_LOCK ends only with its session: the holder's session is ended (KILL), as a
            // take-over of a lock past its TTL ends it. Our own hold is released first, cleanly.
            $this->handle()->release();
            try {
                $this->backend->forceRelease($this->name);
            } catch (LockException $e) {
                throw new \RuntimeException(sprintf('Force-releasing lock "%s" failed: %s', $this->name, $e->getMessage()), 0, $e);
            }

            return;
        }
        throw new \BadMethodCallException(sprintf('Lock "%s": forceRelease() is not supported on a %s.', $this->name, get_debug_type($this->backend)));
    }

    /**
     * The owner token. Handing it out is how a lock leaves the process (restoreLock($name, $owner)
     * elsewhere), so from now on request end no longer releases it.
     */
    public function owner()
    {
        $this->ownerShared = true;
        if ($this->lock->isAcquired()) {
            $this->lock->detach();
        }

        return $this->owner;
    }

    /** Laravel's isOwnedByCurrentProcess() compares this with owner(). */
    protected function getCurrentOwner()
    {
        if ($this->backend instanceof RedisBackend) {
            return $this->backend->currentOwner($this->name);
        }

        // Files and MySQL keep no readable owner token: say whether this owner holds it.
        return $this->handle()->isHeld() ? $this->owner : null;
    }

    public function getNativeLock(): NativeLockHandle
    {
        return $this->handle();
    }

    protected function take(float $timeout, bool $scoped): bool
    {
        if (getmypid() !== $this->pid) {
            // A forked child acquiring with an inherited object: a new owner (as Laravel draws
            // one), so that the parent's copy, which keeps the old one, cannot release the
            // child's lock.
            $this->owner = Str::random();
            $this->ownerShared = false;
            $this->pid = getmypid();
            $this->lock = $this->newHandle();
        }
        $lock = $this->handle();
        try {
            if ($lock->isAcquired()) {
                if ($lock->isHeld()) {
                    // Laravel's locks are not re-entrant: get() on a held lock fails, and block()
                    // retries until the lock lapses (its TTL, a forceRelease()) or time is up.
                    if ($timeout <= 0.0) {
                        return false;
                    }
                    $timeout = $this->waitForOwnHoldToLapse($lock, $timeout);
                    if (null === $timeout) {
                        return false;
                    }
                    if (getmypid() !== $this->pid) {
                        return $this->take($timeout, $scoped); // forked meanwhile (a signal handler): start as the child
                    }
                }
                // Expired, or freed by forceRelease() elsewhere: free for us too, as for Laravel.
                $lock->release();
            }
            $ok = $lock->acquire($this->seconds > 0 ? (float) $this->seconds : null, $timeout);
        } catch (LockException $e) {
            throw new \RuntimeException(sprintf('Acquiring lock "%s" failed: %s', $this->name, $e->getMessage()), 0, $e);
        } catch (\ValueError $e) {
            throw new \InvalidArgumentException(sprintf('Lock "%s": %s', $this->name, $e->getMessage()), 0, $e);
        }
        if ($ok && $lock->getToken() !== (string) $this->owner) {
            // A forked child acquiring with an inherited object gets a token of its own (the
            // parent's lock is never the child's to release): the owner follows it.
            $this->owner = $lock->getToken();
        }
        if ($ok && !$scoped && (!$this->releaseAtRequestEnd || $this->ownerShared)) {
            $lock->detach();
        }

        return $ok;
    }

    /**
     * Waits, checking every 10 to 50 ms, until this object's own hold has lapsed; returns what
     * is left of $timeout, or null once it is spent. Nothing wakes us here: no release comes.
     */
    private function waitForOwnHoldToLapse(NativeLockHandle $lock, float $timeout): ?float
    {
        $now = static fn (): float => hrtime(true) / 1e9; // steady: a clock step does not stretch the wait
        $end = $now() + $timeout; // INF stays INF
        while ($lock->isHeld() && getmypid() === $this->pid) {
            $left = $end - $now();
            if ($left <= 0.0) {
                return null;
            }
            // Seconds to expiry; null: none; 0.0 also in a MySQL row's last (whole) second.
            $lifetime = $lock->getRemainingLifetime();
            $nap = min($left, 0.05, null === $lifetime || $lifetime <= 0.0 ? 0.05 : max($lifetime, 0.01));
            usleep((int) ceil($nap * 1e6));
        }

        return max(0.0, $end - $now());
    }

    protected function handle(): NativeLockHandle
    {
        return $this->lock;
    }

    private function newHandle(): NativeLockHandle
    {
        try {
            return new NativeLockHandle($this->backend, $this->name, (string) $this->owner);
        } catch (\ValueError $e) {
            throw new \InvalidArgumentException(sprintf('Lock "%s": %s', $this->name, $e->getMessage()), 0, $e);
        }
    }
}
