<?php
// The behaviour every driver must show, written the way an application's suite uses the
// package: static API, handles, exceptions, other processes.

use ItsMieger\MySqlSharedLocks\Exception\SharedLockAcquireException;
use ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException;
use ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException;
use ItsMieger\MySqlSharedLocks\Exception\SharedLockTimeoutException;
use ItsMieger\MySqlSharedLocks\SharedLock;
use ItsMieger\MySqlSharedLocks\SharedLockHandle;

trait SharedLockScenarios
{
    public function testAcquire(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 5, 10);
        $this->assertInstanceOf(SharedLockHandle::class, $handle);
        $row = $this->row($name);
        $this->assertEquals(1, $row['lock_acquired']);
        $this->assertEquals(10, $row['ttl']);
        $this->assertEquals($row['connection_id'], $row['used']);
        $this->assertSame($handle, $handle->release());
        $this->assertLockFree($name);
    }

    public function testExplicitReleaseLetsWaiterIn(): void
    {
        $name = $this->lockName();
        $this->fork(function ($socket) use ($name) {
            $this->expectMessage($socket, 'acquired');
            $waited = $this->timed(function () use ($name) {
                SharedLock::lock($name, 10, 10)->release();
            });
            // The child releases after 0.5 s; the waiter must not sit out its 10 s timeout.
            $this->assertLessThan(4, $waited);
            fwrite(STDERR, sprintf("[%s] waiter got the lock %.0f ms after it started waiting (holder released at ~500 ms)\n", static::class, $waited * 1000));
        }, function ($socket) use ($name) {
            $handle = SharedLock::lock($name, 0, 10);
            $this->send($socket, 'acquired');
            usleep(500000);
            $handle->release();
            sleep(10);
        });
    }

    public function testDiedHolderIsCleanedUp(): void
    {
        $name = $this->lockName();
        $this->fork(function ($socket) use ($name) {
            $this->expectMessage($socket, 'acquired');
            $this->expectMessage($socket, 'dying');
            usleep(200000);
            $this->assertLessThan(3, $this->timed(fn() => SharedLock::lock($name, 3, 10)->release()));
        }, function ($socket) use ($name) {
            SharedLock::lock($name, 0, 600);
            $this->send($socket, 'acquired');
            $this->send($socket, 'dying');
        });
    }

    public function testDiedHolderIsCleanedUpWithTimeoutZero(): void
    {
        $name = $this->lockName();
        $this->fork(function ($socket) use ($name) {
            $this->expectMessage($socket, 'dying');
            usleep(300000);
            SharedLock::lock($name, 0, 10)->release();
            $this->addToAssertionCount(1);
        }, function ($socket) use ($name) {
            SharedLock::lock($name, 0, 600);
            $this->send($socket, 'dying');
        });
    }

    public function testRowWithoutAcquiredMarkIsCleanedOnlyAfterTtl(): void
    {
        $name = $this->lockName();
        $this->admin()->prepare('INSERT INTO shared_locks (name, connection_id, created, ttl, lock_acquired) VALUES (?, 999999999, unix_timestamp(), 2, 0)')
            ->execute([$name]);
        $waited = $this->timed(fn() => SharedLock::lock($name, 10, 10)->release());
        $this->assertGreaterThan(1.0, $waited);
        $this->assertLessThan(10.0, $waited);
    }

    public function testTimeout(): void
    {
        $name = $this->lockName();
        $this->fork(function ($socket) use ($name) {
            $this->expectMessage($socket, 'acquired');
            $start = microtime(true);
            try {
                SharedLock::lock($name, 1, 10);
                $this->fail('expected a timeout');
            } catch (SharedLockTimeoutException $e) {
                $took = microtime(true) - $start;
                $this->assertSame($name, $e->getLockName());
                $this->assertSame(1, $e->getTimeout());
                $this->assertSame('Acquiring lock "' . $name . '" timed out after 1 seconds', $e->getMessage());
                $this->assertGreaterThanOrEqual(0.9, $took);
                $this->assertLessThan(4, $took);
            }
        }, function ($socket) use ($name) {
            SharedLock::lock($name, 0, 60);
            $this->send($socket, 'acquired');
            sleep(30);
        });
    }

    public function testReleaseFailsAfterRowDeleted(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 0, 10);
        $this->assertSame(1, $this->admin()->exec('DELETE FROM shared_locks WHERE name = ' . $this->admin()->quote($name)));
        $this->expectException(SharedLockReleaseException::class);
        $handle->release();
    }

    public function testReleaseFailsAfterSessionKilled(): void
    {
        $name = $this->lockName();
        SharedLock::lock($name, 0, 10);
        $this->killLockSession($name);
        $this->expectException(SharedLockReleaseException::class);
        SharedLock::unlock($name);
    }

    public function testAssertTtl(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 0, 10);
        $this->assertSame($handle, $handle->assertTTL(5));
        SharedLock::assertTTL($name);
        $handle->release();
    }

    public function testAssertTtlFailsWithoutEnoughTtl(): void
    {
        $name = $this->lockName();
        SharedLock::lock($name, 0, 10);
        try {
            SharedLock::assertTTL($name, 20);
            $this->fail('expected SharedLockRemainingTTLException');
        } catch (SharedLockRemainingTTLException $e) {
            $this->assertSame(20, $e->getTTL());
            $this->assertSame($name, $e->getLockName());
        }
        SharedLock::unlock($name);
    }

    public function testAssertTtlFailsAfterRowDeleted(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 0, 10);
        $this->admin()->exec('DELETE FROM shared_locks WHERE name = ' . $this->admin()->quote($name));
        $this->expectException(SharedLockRemainingTTLException::class);
        $handle->assertTTL(1);
    }

    public function testAssertTtlFailsAfterSessionKilled(): void
    {
        $name = $this->lockName();
        $handle = SharedLock::lock($name, 0, 10);
        $this->killLockSession($name);
        $this->expectException(SharedLockRemainingTTLException::class);
        $handle->assertTTL(1);
    }

    public function testRepairTable(): void
    {
        SharedLock::tryRepairTable();
        $this->addToAssertionCount(1);
    }

    public function testHungHolderPastTtlIsKilled(): void
    {
        $name = $this->lockName();
        $this->fork(function ($socket) use ($name) {
            $this->expectMessage($socket, 'acquired');
            $waited = $this->timed(function () use ($name) {
                $handle = SharedLock::lock($name, 20, 30);
                $handle->assertTTL(20);
                $handle->release();
            });
            $this->assertLessThan(6, $waited);
        }, function ($socket) use ($name) {
            SharedLock::lock($name, 0, 1);
            $this->send($socket, 'acquired');
            sleep(60); // hangs while its session keeps GET_LOCK
        });
    }

    public function testLongNameIsRejected(): void
    {
        $this->expectException(SharedLockAcquireException::class);
        $this->expectExceptionMessage('longer than 64 characters');
        SharedLock::lock(str_repeat('x', 65), 0, 10);
    }

    public function testMutualExclusionUnderContention(): void
    {
        $name = $this->lockName();
        $counter = tempnam(sys_get_temp_dir(), 'slcount');
        file_put_contents($counter, '0');
        $pids = [];
        for ($i = 0; $i < 4; $i++) {
            $pid = pcntl_fork();
            if ($pid === 0) {
                $this->configureChild();
                for ($j = 0; $j < 25; $j++) {
                    $h = SharedLock::lock($name, 30, 30);
                    $v = (int) file_get_contents($counter);
                    usleep(100);
                    file_put_contents($counter, (string) ($v + 1));
                    $h->release();
                }
                posix_kill(getmypid(), SIGKILL);
            }
            $pids[] = $pid;
        }
        foreach ($pids as $pid) {
            pcntl_waitpid($pid, $status);
        }
        $this->assertSame('100', file_get_contents($counter));
        unlink($counter);
    }
}
