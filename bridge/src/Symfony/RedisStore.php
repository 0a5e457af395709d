<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Symfony;

use Nativelock\Bridge\RedisClient;
use Nativelock\LockException;
use Nativelock\RedisBackend;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\SharedLockStoreInterface;

/**
 * Symfony Lock's RedisStore, natively: the same keys, sorted-set layout and script semantics as
 * Symfony\Component\Lock\Store\RedisStore (5.2+), shared locks, promotion and demotion included,
 * so processes on the stock store and on this one exclude each other. waitAndSave() and
 * waitAndSaveRead() wait natively and wake on release (releases made by the stock store, which
 * does not publish, are noticed by a short poll).
 *
 * Locks still held are released at request end, also after a fatal error, and a forked child
 * never releases its parent's locks. Because of that, keys are not serializable (a serialized key
 * would be released by the process that took it); build the store with
 * $releaseAtRequestEnd = false for locks that must outlive the request (Symfony's
 * createLock(..., autoRelease: false) across requests, or a serialized Key): they end by TTL or
 * release() only, exactly as with the stock store.
 */
final class RedisStore implements SharedLockStoreInterface, BlockingStoreInterface, BlockingSharedLockStoreInterface
{
    use NativeStoreTrait;

    /** The client's own key prefix (phpredis OPT_PREFIX, Predis "prefix"): the stock store's keys carry it. */
    private string $keyPrefix = '';

    /**
     * @param \Redis|\Predis\ClientInterface|RedisBackend|string $redis a phpredis client, a
     *        single-node Predis client (their connection settings are copied; nativelock opens
     *        its own connection), a RedisBackend in FORMAT_SYMFONY, or a DSN
     *        (redis://[user:pass@]host[:port][/db], unix:///path)
     * @param float $initialTtl the expiration delay of locks in seconds
     */
    public function __construct($redis, float $initialTtl = 300.0, bool $releaseAtRequestEnd = true)
    {
        self::checkTtl($initialTtl, __METHOD__);
        if ($redis instanceof RedisBackend) {
            if (RedisBackend::FORMAT_SYMFONY !== $redis->getFormat()) {
                throw new InvalidArgumentException(sprintf('"%s()" expects a RedisBackend in FORMAT_SYMFONY, "%s" given.', __METHOD__, $redis->getFormat()));
            }
            $backend = $redis;
        } else {
            if ($redis instanceof \RedisArray || $redis instanceof \RedisCluster || $redis instanceof \RedisSentinel) {
                throw new InvalidArgumentException(sprintf('"%s()" supports a single Redis node; "%s" is not supported.', __METHOD__, get_debug_type($redis)));
            }
            if ($redis instanceof \Predis\ClientInterface) {
                $connection = $redis->getConnection();
                if ($connection instanceof \Predis\Connection\Aggregate\ClusterInterface || $connection instanceof \Predis\Connection\Aggregate\ReplicationInterface) {
                    throw new InvalidArgumentException(sprintf('"%s()" supports a single Redis node; a Predis client on "%s" is not supported.', __METHOD__, get_debug_type($connection)));
                }
            } elseif (!$redis instanceof \Redis && !\is_string($redis)) {
                throw new InvalidArgumentException(sprintf('"%s()" expects parameter 1 to be Redis, Predis\ClientInterface, Nativelock\RedisBackend or a DSN string, "%s" given.', __METHOD__, get_debug_type($redis)));
            }
            if (\is_string($redis) && '' === trim($redis)) {
                throw new InvalidArgumentException(sprintf('"%s()" expects a Redis DSN, an empty string given.', __METHOD__));
            }
            try {
                $backend = new RedisBackend($redis, RedisBackend::FORMAT_SYMFONY);
                // Only the key prefix matters: the stock store passes tokens as EVAL arguments,
                // which the client neither serializes nor compresses.
                $this->keyPrefix = RedisClient::keyPrefix($redis);
            } catch (LockException|\ValueError|\InvalidArgumentException $e) {
                // The extension's messages never carry a password.
                throw new InvalidArgumentException(sprintf('"%s()": %s', __METHOD__, $e->getMessage()), 0, $e);
            }
        }
        $this->backend = $backend;
        $this->initialTtl = $initialTtl;
        $this->releaseAtRequestEnd = $releaseAtRequestEnd;
    }

    public function saveRead(Key $key): void
    {
        $this->take($key, true, 0.0);
    }

    public function waitAndSaveRead(Key $key): void
    {
        $this->take($key, true, null);
    }

    public function getBackend(): RedisBackend
    {
        return $this->backend;
    }

    private function lockName(Key $key): string
    {
        return $this->keyPrefix.$key; // Symfony's RedisStore: the resource, after the client's prefix
    }

    /**
     * The token is also kept where Symfony's own RedisStore keeps it, so that a serialized Key
     * moves between stock and bridge processes during a rolling switch (both use it as the
     * sorted-set member).
     */
    private function tokenStates(): array
    {
        return [__CLASS__, \Symfony\Component\Lock\Store\RedisStore::class];
    }

    private function keysSerializable(): bool
    {
        return !$this->releaseAtRequestEnd;
    }
}
