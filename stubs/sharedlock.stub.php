<?php

/**
 * @generate-class-entries
 * @undocumentable
 */

namespace ItsMieger\MySqlSharedLocks\Exception {

    class SharedLockException extends \Exception
    {
        /** @var string */
        protected $lockName;

        /**
         * @param string $lockName
         * @param string $message
         * @param int $code
         */
        public function __construct($lockName, $message = "", $code = 0, ?\Throwable $previous = null) {}

        /** @return string */
        public function getLockName() {}
    }

    class SharedLockAcquireException extends SharedLockException
    {
        /**
         * @param string $lockName
         * @param string $message
         * @param int $code
         */
        public function __construct($lockName, $message = "", $code = 0, ?\Throwable $previous = null) {}
    }

    class SharedLockTimeoutException extends SharedLockAcquireException
    {
        /** @var int */
        protected $timeout;

        /**
         * @param string $lockName
         * @param int $timeout
         * @param string $message
         * @param int $code
         */
        public function __construct($lockName, $timeout, $message = "", $code = 0, ?\Throwable $previous = null) {}

        /** @return int */
        public function getTimeout() {}
    }

    class SharedLockReleaseException extends SharedLockException
    {
        /**
         * @param string $lockName
         * @param string $message
         * @param int $code
         */
        public function __construct($lockName, $message = "", $code = 0, ?\Throwable $previous = null) {}
    }

    class SharedLockRemainingTTLException extends SharedLockException
    {
        /** @var int */
        protected $ttl;

        /**
         * @param string $lockName
         * @param int $ttl
         * @param string $message
         * @param int $code
         */
        public function __construct($lockName, $ttl, $message = "", $code = 0, ?\Throwable $previous = null) {}

        /** @return int */
        public function getTTL() {}
    }

    class TableRepairException extends \Exception
    {
    }
}

namespace ItsMieger\MySqlSharedLocks {

    class SharedLock
    {
        /** @var int */
        const QUOTE_STYLE_DEFAULT = 0;
        /** @var int */
        const QUOTE_STYLE_ANSI = 1;

        /**
         * @param string $host
         * @param string $dbName
         * @param string $username
         * @param string $password
         * @param string $charset
         * @param int|null $port
         * @param string|null $additionalDsn
         * @return void
         */
        public static function configureConnection($host, $dbName, $username, $password, $charset = 'utf8mb4', $port = null, $additionalDsn = null) {}

        /** @return void */
        public static function setConnection(\PDO $pdo) {}

        /**
         * @param int $quoteStyle
         * @return void
         */
        public static function setQuoteStyle($quoteStyle) {}

        /** @return \PDO */
        public static function getConnection() {}

        /** @return string */
        public static function getTable() {}

        /**
         * @param string $name
         * @param float $timeout
         * @param int $ttl
         * @return SharedLockHandle
         */
        public static function lock($name, $timeout, $ttl) {}

        /**
         * @param string $name
         * @return void
         */
        public static function unlock($name) {}

        /**
         * @param string $name
         * @param int $minRemainingTTL
         * @return void
         */
        public static function assertTTL($name, $minRemainingTTL = 1) {}

        /** @return void */
        public static function tryRepairTable() {}

        /** Extension addition: releases every lock this request holds; returns how many. */
        public static function releaseAllHeldLocks(): int {}
    }

    /** @not-serializable */
    class SharedLockHandle
    {
        /** @var string|null */
        protected $lockName = null;

        /** @param string|null $lockName */
        public function __construct($lockName) {}

        /** @return static */
        public function release() {}

        /**
         * @param int $minRemainingTTL
         * @return static
         */
        public function assertTTL($minRemainingTTL = 1) {}

        /**
         * Extension addition: keeps this lock alive while it is held (native driver only). The
         * extension's renewer thread sets the lock's row to its full TTL every third of it, from a
         * session of its own, while the session that holds the lock still holds GET_LOCK, until
         * release, the end of the request or the end of the process. A process that is killed or
         * frozen stops renewing, so its lock can be taken at its TTL. If a renewal finds the lock
         * taken or gone, the lock is lost: assertTTL() throws SharedLockRemainingTTLException at
         * once and release() throws SharedLockReleaseException. With the INI setting
         * nativelock.auto_renew on, every lock taken on the native driver is renewed from the
         * start. setAutoRenew(false) stops the renewal.
         * @throws Exception\SharedLockException if this request does not hold the lock, or it was
         *         taken through a PDO
         * @return static
         */
        public function setAutoRenew(bool $enabled = true): static {}

        /**
         * Extension addition: the fencing token of the acquisition of this lock that this
         * request holds: greater than the token of every earlier fenced acquisition of the same
         * name, by any session. Drawn only when the INI setting nativelock.fencing is on, from
         * the counter table "<table>_fences" (shared_locks_fences; see the README for its
         * CREATE TABLE), while GET_LOCK is held.
         * @throws Exception\SharedLockException if this request does not hold the lock, or
         *         took it with nativelock.fencing off
         */
        public function getFencingToken(): int {}
    }
}
