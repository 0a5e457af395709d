<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Symfony;

use Nativelock\Backend;
use Nativelock\Lock;
use Nativelock\LockException;
use Nativelock\NotSupportedException;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Exception\NotSupportedException as SymfonyNotSupportedException;
use Symfony\Component\Lock\Key;

/**
 * What the three stores share: one native Lock per Key object (ownership is per Key, as in every
 * Symfony store), the Key's state holds the Lock's token under the store's class name, TTLs are
 * kept on the Key (reduceLifetime/checkNotExpired) exactly as Symfony's RedisStore does.
 *
 * @internal
 */
trait NativeStoreTrait
{
    private Backend $backend;
    /** @var ?float seconds; null: the backend keeps no TTL (files) */
    private ?float $initialTtl;
    private bool $releaseAtRequestEnd = true;
    /** @var \WeakMap<Key, Lock> */
    private \WeakMap $locks;
    /** @var \WeakMap<Key, true> Keys whose token this store drew (none came with the Key) */
    private \WeakMap $drawnTokens;

    /** The backend's lock name for a Key (each store maps resources to what its backend takes). */
    abstract private function lockName(Key $key): string;

    /** Whether keys this store locks can be serialized (handed to another process). */
    abstract private function keysSerializable(): bool;

    public function save(Key $key): void
    {
        $this->take($key, false, 0.0);
    }

    public function waitAndSave(Key $key): void
    {
        $this->take($key, false, null);
    }

    public function delete(Key $key): void
    {
        if (!$this->hasToken($key)) {
            return; // never saved through this store: nothing of ours to remove
        }
        try {
            $this->lockFor($key)->release();
        } catch (LockException $e) {
            throw new LockStorageException(sprintf('Failed to release the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        }
    }

    public function exists(Key $key): bool
    {
        if (!$this->hasToken($key)) {
            return false; // a token nobody ever stored cannot hold anything
        }
        $lock = $this->lockFor($key);
        if (!$lock->isAcquired() && $this->tokenIsOurs($key)) {
            // No round trip: a token this store drew for an unserializable Key exists nowhere
            // else, so only this Lock can have stored it, and it holds nothing now (never taken,
            // or released). Lock::release() asks exists() right after delete(): one round trip
            // less per cycle than the stock store.
            return false;
        }
        try {
            return $lock->isHeld();
        } catch (LockException $e) {
            throw new LockStorageException(sprintf('Failed to check the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        }
    }

    public function putOffExpiration(Key $key, float $ttl): void
    {
        if (is_nan($ttl) || $ttl <= 0) {
            throw new \Symfony\Component\Lock\Exception\InvalidTtlException(sprintf('"%s()" expects a TTL greater than 0. Got %s.', __METHOD__, var_export($ttl, true)));
        }
        $key->reduceLifetime($ttl);
        try {
            $ok = null === $this->initialTtl
                ? $this->lockFor($key)->isHeld() // no TTL on this backend: the lock lasts while held
                : $this->lockFor($key)->refresh($ttl);
        } catch (LockException $e) {
            throw new LockStorageException(sprintf('Failed to put off the expiration of the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        }
        if (!$ok) {
            throw new LockConflictedException();
        }
        $this->checkNotExpired($key);
    }

    private function take(Key $key, bool $shared, ?float $timeout): void
    {
        if (null !== $this->initialTtl) {
            $key->reduceLifetime($this->initialTtl);
        }
        if (!$this->keysSerializable()) {
            $key->markUnserializable();
        }
        $lock = $this->lockFor($key);
        try {
            $ok = $lock->acquire($this->initialTtl, $timeout, $shared);
        } catch (NotSupportedException $e) {
            throw new SymfonyNotSupportedException($e->getMessage(), 0, $e);
        } catch (LockException $e) {
            throw new LockStorageException(sprintf('Failed to store the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        }
        if (!$ok) {
            throw new LockConflictedException();
        }
        if (!$this->releaseAtRequestEnd) {
            $lock->detach();
        }
        $this->checkNotExpired($key);
    }

    private function lockFor(Key $key): Lock
    {
        $this->locks ??= new \WeakMap();
        $lock = $this->locks[$key] ?? null;
        if (null === $lock) {
            // The token a Key carries (also after unserialize() in another process) names the holder.
            $token = null;
            foreach ($this->tokenStates() as $state) {
                if ($key->hasState($state) && \is_string($key->getState($state))) {
                    $token = $key->getState($state);
                    break;
                }
            }
            try {
                $lock = new Lock($this->backend, $this->lockName($key), $token);
            } catch (\ValueError $e) {
                // A name the backend cannot take (empty; past Redis' 512 MB): an exception of
                // the component, which Lock wraps as it does the store's others (an \Error
                // would escape it).
                throw new InvalidArgumentException(sprintf('The "%s" lock cannot be stored: %s', $key, $e->getMessage()), 0, $e);
            }
            $this->locks[$key] = $lock;
            if (null === $token) {
                $this->drawnTokens ??= new \WeakMap();
                $this->drawnTokens[$key] = true;
            }
        }
        // A forked child draws a new token for an inherited Lock: the Key follows it.
        foreach ($this->tokenStates() as $state) {
            $key->setState($state, $lock->getToken());
        }

        return $lock;
    }

    /** Whether the Key's token is known to this store only (drawn here, Key unserializable). */
    private function tokenIsOurs(Key $key): bool
    {
        return !$this->keysSerializable() && isset($this->drawnTokens[$key]);
    }

    private function hasToken(Key $key): bool
    {
        foreach ($this->tokenStates() as $state) {
            if ($key->hasState($state)) {
                return true;
            }
        }

        return false;
    }

    /** The Key states that carry this store's token (the first is its own). */
    private function tokenStates(): array
    {
        return [__CLASS__];
    }

    private function checkNotExpired(Key $key): void
    {
        if ($key->isExpired()) {
            try {
                $this->delete($key);
            } catch (\Exception $e) {
                // swallow exception to not hide the original issue
            }
            throw new LockExpiredException(sprintf('Failed to store the "%s" lock.', $key));
        }
    }

    /** Symfony's own rule: a TTL must be strictly positive (InvalidTtlException otherwise). */
    private static function checkTtl(float $initialTtl, string $method): void
    {
        if (is_nan($initialTtl) || $initialTtl <= 0) {
            throw new \Symfony\Component\Lock\Exception\InvalidTtlException(sprintf('"%s()" expects a strictly positive TTL. Got %s.', $method, var_export($initialTtl, true)));
        }
    }
}
