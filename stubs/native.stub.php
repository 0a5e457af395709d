<?php

/**
 * @generate-class-entries
 */

namespace Nativelock {

    /**
     * The native API: the low-level layer the bridge (nativelock/bridge) stands on. A Lock is one
     * key and one token on one backend; it acquires (exclusive or shared), waits with a deadline
     * (woken by releases, never by sleep-polling alone), refreshes, releases and inspects.
     *
     * Numbers: TTLs and timeouts are seconds as float. NaN and negative values are a
     * ValueError; INF or anything at or above 1e9 s means "no limit" (never wrapped).
     */

    /** Thrown when a backend cannot be reached or refuses a command; never shows secrets. */
    class LockException extends \RuntimeException {}

    /** Thrown when a backend cannot do what was asked (e.g. a shared lock on MySQL). */
    class NotSupportedException extends LockException {}

    /**
     * Where locks live and in which wire format. The three backends are final; users do not
     * extend this class.
     * @not-serializable
     */
    abstract class Backend
    {
        /** The backend's wire format or kind, e.g. "redis:plain", "redis:symfony", "file", "mysql". */
        public function getName(): string {}

        /** Whether this backend takes shared (read) locks. */
        public function supportsShared(): bool {}
    }

    /**
     * Locks in Redis.
     *
     * FORMAT_PLAIN: `SET key token NX PX ttl`, compare-and-delete release: Laravel's RedisLock
     * (key = cache prefix + name, value = owner) and the RedisLock gist. Exclusive only.
     *
     * FORMAT_SYMFONY: Symfony Lock's RedisStore (5.2+): the key is a sorted set of tokens scored by
     * expiry, with "__write__" marking a writer; shared locks, promotion and demotion included.
     * @not-serializable
     * @strict-properties
     */
    final class RedisBackend extends Backend
    {
        /** @var string */
        public const FORMAT_PLAIN = "plain";
        /** @var string */
        public const FORMAT_SYMFONY = "symfony";

        /**
         * @param \Redis|\Predis\ClientInterface|\Credis_Client|string $connection a client whose
         *        connection settings are copied (nativelock opens its own connections), or a URI
         *        (redis://[user:pass@]host[:port][/db], tcp://host:port, unix:///path)
         */
        public function __construct(mixed $connection, string $format = RedisBackend::FORMAT_PLAIN) {}

        public function getFormat(): string {}

        /**
         * The token that holds $key now, or null if it is free (FORMAT_PLAIN; for FORMAT_SYMFONY
         * the writer's token, or null if there is none).
         */
        public function currentOwner(string $key): ?string {}

        /** Removes $key whoever holds it; true if it existed. Waiters are woken. */
        public function forceRelease(string $key): bool {}
    }

    /**
     * Locks as files in a directory, with the Filelock protocol (hard links, NFS-safe, a provably
     * dead owner's lock is broken). Exclusive only; no expiry (the owner's death ends a lock).
     * Lock names are those of Filelock: a lock "x" is the file "<directory>/x.lock", so Filelock
     * objects and this backend exclude each other.
     * @not-serializable
     * @strict-properties
     */
    final class FileBackend extends Backend
    {
        public function __construct(string $directory) {}

        public function getDirectory(): string {}
    }

    /**
     * Locks in MySQL/MariaDB: a row in a lock table (TTL) and GET_LOCK, so waiters wait
     * server-side and a lock whose TTL passed is taken over. The protocol is that of SharedLock
     * (its-mieger/mysql-shared-locks). Exclusive only.
     *
     * Given a DSN, locks live on sessions of nativelock's own (pooled per process, fork-safe,
     * auto-renewable). Given a \PDO, they live in that session, the application's: its
     * transactions and the locks share one connection, and a holder past its TTL is taken over
     * by ending that session (KILL), so a transaction it runs can no longer commit. Such locks are
     * not auto-renewed, and a forked child cannot use a PDO its parent opened.
     * @not-serializable
     * @strict-properties
     */
    final class MysqlBackend extends Backend
    {
        /**
         * @param string|\PDO $dsn PDO's "mysql:host=…;port=…;dbname=…" (unix_socket= also
         *        works), or a PDO connected with the mysql driver (then no username or password)
         */
        public function __construct(string|\PDO $dsn, ?string $username = null, ?string $password = null, string $table = "shared_locks") {}

        public function getTable(): string {}

        /**
         * Frees $key whoever holds it (an administrator's action, Laravel's forceRelease()): the
         * MySQL session holding it is ended (KILL), as a take-over of a lock past its TTL ends
         * it, so every lock that session held goes with it; a lock of this process's own
         * session is released instead. Returns once the name is free; true if it was held.
         */
        public function forceRelease(string $key): bool {}
    }

    /**
     * One lock: a key and a token on a backend.
     *
     * A held lock is released by release(), or at the end of the request (after destructors and
     * shutdown functions, also after a fatal error) unless detach() was called. It is never
     * released early because the object went out of scope: keep it, or release it. In a forked
     * child a lock of the parent is not held: release() there does nothing and returns false.
     * @not-serializable
     * @strict-properties
     */
    final class Lock
    {
        /**
         * @param string|null $token the value that marks the holder; random (20 bytes of
         *        entropy, base64url) if null. On Redis, two Lock objects with the same token
         *        on the same key are the same holder (Laravel's restoreLock()): isHeld(),
         *        refresh() and release() act on the lock the other one took, and acquire() of a
         *        lock the token already holds returns false in FORMAT_PLAIN (SET NX, as Laravel's
         *        get()) and re-takes it in FORMAT_SYMFONY (as Symfony's save()). On files and
         *        MySQL a lock belongs to the object that took it (its lock file record, its
         *        database session), not to the token: another object with the same token does
         *        not hold it.
         */
        public function __construct(Backend $backend, string $key, ?string $token = null) {}

        /**
         * Takes the lock. $ttl: seconds until it expires unless refreshed; null = no expiry
         * (Redis and MySQL clamp it to 1e9 s; files never expire). $timeout: 0 = one attempt,
         * null = wait for ever, else seconds to wait. Returns whether it is held now. A wait is
         * woken by the release; pending PHP signal handlers run while it waits.
         * Calling acquire() on a lock this object already holds re-takes it with the new TTL.
         * @throws LockException on a backend error
         * @throws NotSupportedException for a shared lock on a backend without them
         */
        public function acquire(?float $ttl = null, ?float $timeout = 0.0, bool $shared = false): bool {}

        /** Sets the lock's TTL anew if this token still holds it; false if it does not. */
        public function refresh(float $ttl): bool {}

        /**
         * Releases the lock if this token holds it; true if it did. Waiters are woken. A lock
         * whose TTL passed or that another holder took returns false.
         */
        public function release(): bool {}

        /** Whether this token holds the lock now (asks the backend). */
        public function isHeld(): bool {}

        /**
         * Whether this object took the lock and has not released it (no round trip); false once
         * its auto-renewal found it expired or taken.
         */
        public function isAcquired(): bool {}

        /**
         * Keeps the lock alive while this object holds it (Redis and MySQL backends): the
         * extension's renewer thread extends it to its TTL every third of it, on a connection of
         * its own, until release(), detach(), the end of the request or of the process. A process
         * that is killed or frozen stops renewing, so its lock expires at its TTL. If a renewal
         * finds the lock expired or taken, it is lost: isAcquired() says false at once and
         * release() returns false. Without a call, acquire() follows the INI setting
         * nativelock.auto_renew (off by default). Called while the lock is held, it starts or
         * stops the renewal at once. A lock without TTL needs no renewal.
         * @throws NotSupportedException to turn it on for a FileBackend lock (files have no TTL)
         */
        public function setAutoRenew(bool $enabled = true): static {}

        /** Whether this object holds the lock and its renewal is running. */
        public function isAutoRenewed(): bool {}

        /** Seconds until the lock expires; null if it has no expiry; 0.0 if it is not held. */
        public function getRemainingLifetime(): ?float {}

        /**
         * From now on the lock outlives the request: request end no longer releases it, and
         * another process may release it with the same token. Its TTL (or release()) ends it.
         */
        public function detach(): void {}

        public function getKey(): string {}

        public function getToken(): string {}

        public function isShared(): bool {}

        /**
         * The fencing token of the acquisition this object holds: greater than the token of
         * every earlier fenced acquisition of the same key on the same backend, by any process on
         * any host. Drawn only when the INI setting nativelock.fencing is on (checked at
         * acquire()): Redis plain format, the counter "nativelock:fence:" . key, INCRed in the
         * acquiring script; MySQL, the table "<table>_fences", while GET_LOCK is held; files,
         * "<directory>/<key>.lock.fence", written while holding. A lock whose token cannot be
         * drawn is given back and acquire() throws. Re-acquiring a lock this object holds
         * keeps its token.
         * @throws LockException if this object does not hold the lock, or took it with
         *         nativelock.fencing off
         * @throws NotSupportedException on RedisBackend::FORMAT_SYMFONY (no counter there)
         */
        public function getFencingToken(): int {}

        public function getBackend(): Backend {}
    }
}
