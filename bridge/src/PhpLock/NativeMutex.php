<?php

declare(strict_types=1);

namespace Nativelock\Bridge\PhpLock;

use malkusch\lock\exception\ExecutionOutsideLockException;
use malkusch\lock\exception\LockAcquireException;
use malkusch\lock\exception\LockReleaseException;
use malkusch\lock\exception\TimeoutException;
use malkusch\lock\mutex\LockMutex;
use Nativelock\Backend;
use Nativelock\Lock;
use Nativelock\LockException;

/**
 * A php-lock/lock mutex on nativelock: lock() waits natively up to $timeout seconds (woken by the
 * release, no back-off sleeps) and throws TimeoutException after it; unlock() throws
 * ExecutionOutsideLockException when the code ran longer than the lease (as SpinlockMutex does)
 * unless auto-renewal kept the lock alive meanwhile, LockReleaseException when the lock was lost. A lock still held is released at request end even
 * after a fatal error, and a forked child never releases its parent's lock. Nested
 * synchronized() on the same object: as the stock mutex of the same backend. MySQLMutex's
 * GET_LOCK is re-entrant per session, so MysqlMutex re-enters (the inner block runs; only the
 * outer unlock releases); the others wait out their timeout and throw TimeoutException (taking
 * the lock again would let the inner unlock free it while the outer code still runs).
 *
 * @internal base of RedisMutex, FilelockMutex and MysqlMutex
 */
abstract class NativeMutex extends LockMutex
{
    private Lock $lock;
    private int $timeout;
    /** @var ?int seconds the lease lasts; null: no lease (the lock lasts until unlock) */
    private ?int $lease;
    private float $acquired = 0.0;
    /** @var int the pid of the process inside synchronized() on this object; 0: none */
    private int $holder = 0;
    /** @var int nested synchronized() calls inside the outer one (re-entrant mutexes only) */
    private int $depth = 0;

    protected function __construct(Backend $backend, string $key, int $timeout, ?int $lease)
    {
        if ($timeout < 0) {
            throw new \InvalidArgumentException(sprintf('The timeout must be 0 or more seconds, %d given.', $timeout));
        }
        if (null !== $lease && $lease <= 0) {
            throw new \InvalidArgumentException(sprintf('The lease must be more than 0 seconds, %d given.', $lease));
        }
        try {
            $this->lock = new Lock($backend, $key);
        } catch (\ValueError $e) {
            throw new \InvalidArgumentException($e->getMessage(), 0, $e);
        }
        $this->timeout = $timeout;
        $this->lease = $lease;
    }

    protected function lock(): void
    {
        if (getmypid() === $this->holder) {
            if ($this->reentrant()) {
                if (!$this->lock->isAcquired()) {
                    // The outer block's lock is gone (its lease ran out, its session ended).
                    throw new LockAcquireException('Failed to acquire the lock: the lock of the enclosing synchronized() was lost.');
                }
                ++$this->depth; // held by the outer call, which alone releases it

                return;
            }
            // Nested synchronized() on this object: as with the stock mutexes, the lock is busy
            // (held by the outer call) until the timeout. Re-taking it would let the inner
            // unlock() free it while the outer code still runs.
            $deadline = microtime(true) + $this->timeout;
            while (($left = $deadline - microtime(true)) > 0) {
                usleep((int) (min($left, 1.0) * 1e6));
            }
            throw TimeoutException::create($this->timeout);
        }
        try {
            $ok = $this->lock->acquire(null === $this->lease ? null : (float) $this->lease, (float) $this->timeout);
        } catch (LockException $e) {
            throw new LockAcquireException(sprintf('Failed to acquire the lock: %s', $e->getMessage()), 0, $e);
        }
        if (!$ok) {
            throw TimeoutException::create($this->timeout);
        }
        $this->acquired = microtime(true);
        $this->holder = getmypid();
        $this->depth = 0; // a forked child inherits its parent's nesting, not its lock
    }

    protected function unlock(): void
    {
        if ($this->depth > 0 && getmypid() === $this->holder) {
            --$this->depth;

            return;
        }
        $this->holder = 0;
        $this->depth = 0;
        $elapsed = microtime(true) - $this->acquired;
        // Kept alive by the renewal thread (nativelock.auto_renew) and never found lost: the
        // code ran under the lock however long it took, which the release then confirms.
        $renewed = $this->lock->isAutoRenewed();
        try {
            $released = $this->lock->release();
        } catch (LockException $e) {
            throw new LockReleaseException(sprintf('Failed to release the lock: %s', $e->getMessage()), 0, $e);
        }
        if (null !== $this->lease && $elapsed > $this->leaseLimit() && !($renewed && $released)) {
            throw ExecutionOutsideLockException::create($elapsed, $this->leaseLimit());
        }
        if (!$released) {
            throw new LockReleaseException('Failed to release the lock.');
        }
    }

    /** Whether a nested synchronized() on this object re-enters (as the stock mutex of the backend does). */
    protected function reentrant(): bool
    {
        return false;
    }

    /** The time the code may run under the lock (SpinlockMutex: the timeout; the lease is one second more). */
    protected function leaseLimit(): int
    {
        return $this->lease;
    }

    public function getNativeLock(): Lock
    {
        return $this->lock;
    }

    public function getTimeout(): int
    {
        return $this->timeout;
    }
}
