<?php

/**
 * @generate-class-entries
 */

/** Thrown when a lock cannot be obtained (and, as subclasses, on connection failures). */
class RedisLockFailException extends Exception {}

/**
 * The Redis server could not be reached or stopped answering (connect or read timeout,
 * refused, reset, restarted). The message names host:port and the cause.
 */
class RedisLockConnectionException extends RedisLockFailException {}

/**
 * @not-serializable
 * Atomic, distributed locking with Redis: a drop-in, native replacement for the RedisLock
 * gist (Credis). Same keys ("redislock:" . $name) and values on the wire, so processes running
 * the original class and processes running this one exclude each other.
 */
class RedisLock
{
    /** @var int */
    public const DEFAULT_TIMEOUT = 20;
    /**
     * What to do if the lock cannot be obtained: throw RedisLockFailException.
     * @var string
     */
    public const FAIL_EXCEPT = 'fail_except';
    /**
     * Return false.
     * @var string
     */
    public const FAIL_RETURN = 'fail_return';
    /**
     * Wait (about 15 s, woken by the release), then throw RedisLockFailException.
     * @var string
     */
    public const FAIL_BLOCK = 'fail_block';

    /**
     * The client given to setRedis().
     * @var \Credis_Client|\Redis|\Predis\Client|string|null
     */
    protected static $redis = null;

    /**
     * Lock name.
     * @var string
     */
    protected $name;
    /**
     * Random value stored under the key while we hold the lock.
     * @var string
     */
    protected $value;
    /**
     * One of the FAIL_* constants.
     * @var string
     */
    protected $failBehavior;
    /**
     * Lock lifetime on the server, in seconds.
     * @var int
     */
    protected $timeout;
    /**
     * Whether this object holds the lock.
     * @var bool
     */
    protected $needsRelease = false;

    /**
     * Which Redis server to use. Accepts a Credis_Client, a phpredis \Redis, a Predis\Client
     * (single node) or a string redis://[user:pass@]host[:port][/db], tcp://host:port,
     * unix:///path or /path. The extension opens its own connection with those parameters.
     * The argument is marked #[\SensitiveParameter] (added in MINIT: the generated arginfo
     * does not compile as C++), so stack traces never show a password.
     * @param \Credis_Client|\Redis|\Predis\Client|string $redis
     * @return void
     */
    public static function setRedis($redis) {}

    /**
     * Throws \Exception if setRedis() was not called.
     * @return void
     */
    protected static function ensureRedisIsSet() {}

    /**
     * Returns the lock object if the lock was obtained (false under FAIL_RETURN).
     * @param string $name
     * @param int $timeout
     * @param string $failBehavior
     * @return static|bool
     */
    public static function createAndLock($name, $timeout, $failBehavior = RedisLock::FAIL_EXCEPT) {}

    /**
     * A lock object, not yet locked.
     * @param string $name
     * @param int $timeout
     * @param string $failBehavior
     * @return static
     */
    public static function create($name, $timeout, $failBehavior = RedisLock::FAIL_EXCEPT) {}

    /**
     * @param string $name
     * @param int $timeout lifetime on the server in seconds; must be an int
     * @param string $failBehavior one of the FAIL_* constants
     */
    public function __construct($name, $timeout, $failBehavior) {}

    /**
     * The Redis key of this lock ("redislock:" . name). Override to change it.
     * @return string
     */
    protected function key() {}

    /**
     * Acquires the lock: true if obtained; otherwise per the fail behaviour (throw, false, or
     * wait then throw). Accepts an optional, undeclared argument float|null $maxWait: the
     * FAIL_BLOCK wait budget in seconds (default about 15 s, like the original). It is not
     * declared so that subclasses overriding lock() without parameters stay compatible.
     * @return bool
     * @throws RedisLockFailException
     */
    public function lock() {}

    /**
     * Releases the lock if this object holds it and the key still has our value.
     * @return void
     */
    public function release() {}

    /**
     * Releases every lock held in this request (also done automatically at request end).
     * @return void
     */
    public static function releaseAllCurrentlyHeldLocks() {}

    /**
     * Extends the lock to $ttl seconds from now (default: the lock's timeout) if the key
     * still holds our value. Returns whether it did.
     */
    public function refresh(?int $ttl = null): bool {}

    /** Seconds the lock has left on the server, or null if not held (or expired, or taken over). */
    public function getRemainingLifetime(): ?float {}

    /** Whether the server still holds our value under the key (asked, not assumed). */
    public function isAcquired(): bool {}

    /**
     * Extension addition: keeps this lock alive while it is held. The extension's renewer thread
     * extends the key to its full timeout every third of it, on a connection of its own, until
     * release(), the end of the request or the end of the process. A process that is killed or
     * frozen stops renewing, so its lock expires at its timeout. If a renewal finds the key gone
     * or taken, the lock is lost: isAcquired() says false at once, and release() throws
     * RedisLockFailException. Without a call, lock() follows the INI setting
     * nativelock.auto_renew (off by default). Called while the lock is held, it starts or stops
     * the renewal at once.
     * @return static
     */
    public function setAutoRenew(bool $enabled = true): static {}

    /** Extension addition: whether this object holds the lock and its renewal is running. */
    public function isAutoRenewed(): bool {}

    /**
     * The fencing token of the acquisition this object holds: greater than the token of every
     * earlier fenced acquisition of the same key, by any process on any host. Drawn only when
     * the INI setting nativelock.fencing is on (a counter "nativelock:fence:" . key() on the
     * server, incremented in the acquiring script). Stays the same until release(), also after
     * the TTL passed (a resource that saw a greater token then refuses this holder).
     * @throws RedisLockFailException if this object does not hold the lock, or took it with
     *         nativelock.fencing off
     */
    public function getFencingToken(): int {}
}
