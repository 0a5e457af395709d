<?php
use ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException;
use ItsMieger\MySqlSharedLocks\SharedLock;

require_once __DIR__ . '/SharedLockScenarios.php';

/** The default driver: configureConnection() with nativelock.sharedlock_driver=native. */
class SharedLockNativeTest extends SharedLockTestCase
{
    use SharedLockScenarios;

    protected function configure(): void
    {
        $p = self::params();
        SharedLock::configureConnection($p['host'], $p['db'], $p['user'], $p['password'], 'utf8mb4', $p['port']);
    }

    public function testGetConnectionIsASeparateSession(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 0, 10);
        $pdo = SharedLock::getConnection();
        $this->assertInstanceOf(PDO::class, $pdo);
        $this->assertNotEquals($this->row($name)['connection_id'], $pdo->query('SELECT CONNECTION_ID()')->fetchColumn());
        $handle->release();
    }

    /** The native session is fork-aware: the child's normal exit leaves the parent's session and locks alone. */
    public function testForkedChildDoesNotTouchParentLocks(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 0, 30);
        // PDO objects inherited by a child that exits normally send QUIT on the parent's socket
        // (PDO is not fork-aware): the test's own PDO is opened again after the fork.
        $this->resetAdmin();
        $pid = pcntl_fork();
        if ($pid === 0) {
            // Ends normally: request shutdown runs in the child.
            try {
                SharedLock::unlock($name);
            } catch (SharedLockReleaseException $e) {
            }
            exit(0);
        }
        pcntl_waitpid($pid, $status);
        $handle->assertTTL(10);
        $handle->release();
        $this->assertLockFree($name);
    }

}
