<?php

declare(strict_types=1);

namespace Nativelock\Bridge\PhpLock;

use Nativelock\Bridge\MysqlLockName;
use Nativelock\LockException;
use Nativelock\MysqlBackend;

/**
 * php-lock/lock's MySQLMutex, natively: GET_LOCK waits server-side (no polling) on a session of
 * nativelock's own, or on the \PDO given (as MySQLMutex takes one), with the SharedLock row
 * protocol. $lease (seconds, optional) is the TTL: a
 * holder past it loses the lock to a waiter, and its unlock() throws ExecutionOutsideLockException.
 * Without a lease the lock lasts until unlock(), the session's end or request end, as in
 * MySQLMutex. Names longer than 64 characters are shortened with a hash.
 */
final class MysqlMutex extends NativeMutex
{
    /**
     * @param string|MysqlBackend|\PDO $dsn "mysql:host=…;dbname=…", a backend, or a PDO of the
     *        mysql driver (MySQLMutex's argument: the locks live in its session; no lease renewal)
     */
    public function __construct(string|MysqlBackend|\PDO $dsn, string $name, int $timeout = 0, ?string $username = null, #[\SensitiveParameter] ?string $password = null, ?int $lease = null)
    {
        if (!$dsn instanceof MysqlBackend) {
            if (\is_string($dsn) && !str_starts_with($dsn, 'mysql:')) {
                throw new \InvalidArgumentException('MysqlMutex expects a DSN starting with "mysql:", a \PDO or a Nativelock\MysqlBackend.');
            }
            try {
                $dsn = new MysqlBackend($dsn, $username, $password);
            } catch (LockException|\ValueError $e) {
                throw new \InvalidArgumentException($e->getMessage(), 0, $e);
            }
        }
        if ('' === $name) {
            throw new \InvalidArgumentException('The lock name must not be empty.');
        }
        parent::__construct($dsn, MysqlLockName::for($name), $timeout, $lease);
    }

    /** MySQLMutex re-enters: GET_LOCK is re-entrant per session. */
    protected function reentrant(): bool
    {
        return true;
    }
}
