<?php

declare(strict_types=1);

namespace Nativelock\Bridge\PhpLock;

use Nativelock\Bridge\RedisClient;
use Nativelock\LockException;
use Nativelock\RedisBackend;

/**
 * php-lock/lock's PHPRedisMutex/PredisMutex, natively and wire-compatible with them on one node:
 * the key "lock_<name>" (after the client's own key prefix, as the client adds it) holds a random
 * token for $timeout + 1 seconds (SET NX EX), released by compare-and-delete. Code that runs
 * longer than $timeout seconds gets an ExecutionOutsideLockException from unlock(), as with
 * SpinlockMutex; a $timeout of 0 or less is a LengthException, as there.
 */
final class RedisMutex extends NativeMutex
{
    private const PREFIX = 'lock_';

    /**
     * @param \Redis|\Predis\ClientInterface|RedisBackend|string|array $redis a client (its settings
     *        are copied), a RedisBackend in FORMAT_PLAIN, a DSN, or a list of exactly one of those
     *        (what PHPRedisMutex/PredisMutex take)
     * @param int $timeout seconds to wait for the lock, and the time the code may run under it
     */
    public function __construct($redis, string $name, int $timeout = 3)
    {
        if ($timeout <= 0) {
            // As SpinlockMutex: the timeout is also the time the code may run under the lock.
            throw new \LengthException(sprintf('The timeout must be greater than 0. %d was given.', $timeout));
        }
        $keyPrefix = '';
        if (!$redis instanceof RedisBackend) {
            if (\is_array($redis)) {
                // PHPRedisMutex/PredisMutex take a list of servers: one is fine, a quorum is not.
                if (1 !== \count($redis)) {
                    throw new \InvalidArgumentException(sprintf('RedisMutex on nativelock takes one Redis node, %d given (the RedLock quorum of several servers is not supported).', \count($redis)));
                }
                $redis = reset($redis);
            }
            if (!$redis instanceof \Redis && !$redis instanceof \Predis\ClientInterface && !\is_string($redis)) {
                throw new \InvalidArgumentException(sprintf('RedisMutex expects a \Redis or Predis client, a Nativelock\RedisBackend or a DSN, "%s" given.', get_debug_type($redis)));
            }
            try {
                // The token is this object's alone (nobody reads it back), so a serializer or
                // compression on the client does not matter; its key prefix does.
                $keyPrefix = RedisClient::keyPrefix($redis);
                $redis = new RedisBackend($redis, RedisBackend::FORMAT_PLAIN);
            } catch (LockException|\ValueError $e) {
                throw new \InvalidArgumentException($e->getMessage(), 0, $e);
            }
        } elseif (RedisBackend::FORMAT_PLAIN !== $redis->getFormat()) {
            throw new \InvalidArgumentException(sprintf('RedisMutex needs a RedisBackend in FORMAT_PLAIN, "%s" given.', $redis->getFormat()));
        }
        parent::__construct($redis, $keyPrefix.self::PREFIX.$name, $timeout, $timeout < PHP_INT_MAX ? $timeout + 1 : $timeout);
    }

    protected function leaseLimit(): int
    {
        return $this->getTimeout();
    }
}
