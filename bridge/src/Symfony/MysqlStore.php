<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Symfony;

use Nativelock\Bridge\MysqlLockName;
use Nativelock\LockException;
use Nativelock\MysqlBackend;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Key;

/**
 * MySQL/MariaDB locks as a Symfony store: the SharedLock protocol (a row with a TTL in a MyISAM
 * table plus GET_LOCK), on sessions nativelock opens itself or on the application's \PDO. waitAndSave() waits server-side in
 * GET_LOCK (no polling); the TTL is kept (a holder past its TTL loses the lock to a waiter, and
 * putOffExpiration() extends it); locks still held are released at request end, also after a
 * fatal error; a forked child never releases its parent's locks. Ownership is per Key object
 * (two Keys of one process on one resource exclude each other although GET_LOCK is re-entrant
 * per session); keys are not serializable. TTLs are whole seconds on the server (rounded up).
 *
 * It takes a DSN (+ user and password), a MysqlBackend, or a \PDO (the application's own session,
 * as Symfony's PdoStore takes one). On a \PDO the locks live in that session: the application's
 * transactions and its locks share one connection, and a holder past its TTL is taken over by
 * ending that session (KILL), so a transaction it still runs cannot commit. Such locks are not
 * auto-renewed (call refresh()), and a forked child cannot lock through its parent's PDO.
 */
final class MysqlStore implements BlockingStoreInterface
{
    use NativeStoreTrait;

    /**
     * @param string|MysqlBackend|\PDO $dsn "mysql:host=…;port=…;dbname=…" (or unix_socket=…), a
     *        backend, or a PDO connected with the mysql driver (then no username or password)
     * @param float $initialTtl the expiration delay of locks in seconds
     */
    public function __construct(string|MysqlBackend|\PDO $dsn, ?string $username = null, #[\SensitiveParameter] ?string $password = null, float $initialTtl = 300.0, string $table = 'shared_locks')
    {
        self::checkTtl($initialTtl, __METHOD__);
        if ($dsn instanceof MysqlBackend) {
            $this->backend = $dsn;
        } else {
            if (\is_string($dsn) && !str_starts_with($dsn, 'mysql:')) {
                throw new InvalidArgumentException(sprintf('"%s()" expects a DSN starting with "mysql:", got one starting with "%s".', __METHOD__, substr($dsn, 0, (int) strpos($dsn.':', ':'))));
            }
            if ($dsn instanceof \PDO && 'mysql' !== $dsn->getAttribute(\PDO::ATTR_DRIVER_NAME)) {
                throw new InvalidArgumentException(sprintf('"%s()" requires a PDO connected with the "mysql" driver, "%s" given.', __METHOD__, $dsn->getAttribute(\PDO::ATTR_DRIVER_NAME)));
            }
            if ($dsn instanceof \PDO && (null !== $username || null !== $password)) {
                throw new InvalidArgumentException(sprintf('"%s()" takes no username or password with a PDO (it is connected already).', __METHOD__));
            }
            if ('' === $table || 1 !== preg_match('/^\w{1,64}$/D', $table)) {
                throw new InvalidArgumentException(sprintf('"%s()" expects a table name of 1 to 64 word characters.', __METHOD__));
            }
            try {
                $this->backend = new MysqlBackend($dsn, $username, $password, $table);
            } catch (LockException|\ValueError $e) {
                throw new InvalidArgumentException(sprintf('"%s()": %s', __METHOD__, $e->getMessage()), 0, $e);
            }
        }
        $this->initialTtl = $initialTtl;
    }

    public function getBackend(): MysqlBackend
    {
        return $this->backend;
    }

    /** The lock name for a resource: itself when it fits MySQL's 64 characters, else a prefix and a hash. */
    public static function lockNameFor(string $resource): string
    {
        return MysqlLockName::for($resource);
    }

    private function lockName(Key $key): string
    {
        return self::lockNameFor((string) $key);
    }

    private function keysSerializable(): bool
    {
        return false; // a GET_LOCK belongs to a session of this process
    }
}
