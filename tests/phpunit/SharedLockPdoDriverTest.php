<?php
use ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException;
use ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException;
use ItsMieger\MySqlSharedLocks\SharedLock;

require_once __DIR__ . '/SharedLockScenarios.php';

/**
 * nativelock.sharedlock_driver=pdo: configureConnection() behaves exactly like the package,
 * including suites that run statements on getConnection() (the package's own tests KILL
 * connection_id() there).
 */
class SharedLockPdoDriverTest extends SharedLockTestCase
{
    use SharedLockScenarios;

    protected function configure(): void
    {
        ini_set('nativelock.sharedlock_driver', 'pdo');
        $p = self::params();
        SharedLock::configureConnection($p['host'], $p['db'], $p['user'], $p['password'], 'utf8mb4', $p['port']);
    }

    private function killOwnConnection(): void
    {
        try {
            SharedLock::getConnection()->exec('KILL connection_id()');
        } catch (PDOException $e) {
            if ($e->getCode() != 70100) {
                throw $e;
            }
        }
    }

    public function testReleaseFailsAfterKillConnectionIdOnGetConnection(): void
    {
        $name = $this->lockName();
        SharedLock::lock($name, 0, 10);
        $this->killOwnConnection();
        $this->expectException(SharedLockReleaseException::class);
        SharedLock::unlock($name);
    }

    public function testAssertTtlFailsAfterKillConnectionIdOnGetConnection(): void
    {
        $name = $this->lockName();
        SharedLock::lock($name, 0, 10);
        $this->killOwnConnection();
        $this->expectException(SharedLockRemainingTTLException::class);
        SharedLock::assertTTL($name, 1);
    }

    public function testGetConnectionIsTheLockSession(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 0, 10);
        $this->assertEquals($this->row($name)['connection_id'], SharedLock::getConnection()->query('SELECT CONNECTION_ID()')->fetchColumn());
        $handle->release();
    }
}
