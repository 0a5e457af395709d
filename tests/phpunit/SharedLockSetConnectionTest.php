<?php
use ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException;
use ItsMieger\MySqlSharedLocks\SharedLock;

require_once __DIR__ . '/SharedLockScenarios.php';

/** setConnection($pdo): the package's "strategy 1", locks share the application's session. */
class SharedLockSetConnectionTest extends SharedLockTestCase
{
    use SharedLockScenarios;

    /** @var PDO */
    private $app;

    protected function configure(): void
    {
        $this->app = self::newPdo();
        SharedLock::setConnection($this->app);
    }

    public function testTransactionFailsToCommitAfterLockSessionKilled(): void
    {
        $this->app->exec('CREATE TABLE IF NOT EXISTS sl_phpunit_tx (id int) ENGINE=InnoDB');
        $name = $this->lockName();
        $this->app->beginTransaction();
        $lock = SharedLock::lock($name, 5, 10);
        $this->app->exec('INSERT INTO sl_phpunit_tx VALUES (1)');
        $this->killLockSession($name);
        try {
            $this->app->commit();
            $this->fail('the commit must fail: the lock was lost');
        } catch (PDOException $e) {
            $this->addToAssertionCount(1);
        }
        $this->expectException(SharedLockReleaseException::class);
        $lock->release();
    }

    public function testTransactionCommitsWhileLockHeld(): void
    {
        $this->app->exec('CREATE TABLE IF NOT EXISTS sl_phpunit_tx (id int) ENGINE=InnoDB');
        $name = $this->lockName();
        $this->app->beginTransaction();
        $lock = SharedLock::lock($name, 5, 10);
        $this->app->exec('INSERT INTO sl_phpunit_tx VALUES (2)');
        $this->app->commit();
        $lock->release();
        $this->assertLockFree($name);
    }
}
