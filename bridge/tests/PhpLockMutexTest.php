<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests;

use malkusch\lock\exception\ExecutionOutsideLockException;
use malkusch\lock\exception\LockReleaseException;
use malkusch\lock\exception\TimeoutException;
use malkusch\lock\mutex\LockMutex;
use malkusch\lock\mutex\PHPRedisMutex;
use malkusch\lock\mutex\PredisMutex;
use Nativelock\Bridge\PhpLock\FilelockMutex;
use Nativelock\Bridge\PhpLock\MysqlMutex;
use Nativelock\Bridge\PhpLock\RedisMutex;

final class PhpLockMutexTest extends BridgeTestCase
{
    public function kinds(): iterable
    {
        yield 'redis' => ['redis'];
        yield 'filelock' => ['filelock'];
        yield 'mysql' => ['mysql'];
        yield 'mysql on a PDO' => ['mysql-pdo'];
    }

    private function mutex(string $kind, string $name, int $timeout = 1): LockMutex
    {
        switch ($kind) {
            case 'redis':
                $this->requireRedis();

                return new RedisMutex(self::phpredis(), $name, $timeout);
            case 'filelock':
                return new FilelockMutex(self::lockDir(), $name, $timeout);
            case 'mysql-pdo':
                $this->requireMysql();

                // MySQLMutex's own signature: a PDO, a name, a timeout.
                return new MysqlMutex(new \PDO(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword()), $name, $timeout);
            default:
                $this->requireMysql();

                return new MysqlMutex(self::mysqlDsn(), $name, $timeout, self::mysqlUser(), self::mysqlPassword());
        }
    }

    private function childMutexCode(): string
    {
        return sprintf(<<<'PHP'
            function mutex(string $kind, string $name, int $timeout) {
                switch ($kind) {
                    case 'redis': return new Nativelock\Bridge\PhpLock\RedisMutex(%s, $name, $timeout);
                    case 'filelock': return new Nativelock\Bridge\PhpLock\FilelockMutex(%s, $name, $timeout);
                    case 'mysql-pdo': return new Nativelock\Bridge\PhpLock\MysqlMutex(new PDO(%3$s, %4$s, %5$s), $name, $timeout);
                    default: return new Nativelock\Bridge\PhpLock\MysqlMutex(%3$s, $name, $timeout, %4$s, %5$s);
                }
            }

            PHP, var_export(self::redisDsn(), true), var_export(self::lockDir(), true), var_export(self::mysqlDsn(), true), var_export(self::mysqlUser(), true), var_export(self::mysqlPassword(), true));
    }

    /** @dataProvider kinds */
    public function testSynchronized(string $kind): void
    {
        $mutex = $this->mutex($kind, self::uniqueName('sync'));
        $this->assertSame(42, $mutex->synchronized(fn () => 42));
        $this->assertSame(43, $mutex->synchronized(fn () => 43), 'released after the first run');
        try {
            $mutex->synchronized(function () {
                throw new \DomainException('boom');
            });
            $this->fail('the exception was swallowed');
        } catch (\DomainException $e) {
        }
        $this->assertSame(44, $mutex->synchronized(fn () => 44), 'released after an exception');
    }

    /** @dataProvider kinds */
    public function testCheckThen(string $kind): void
    {
        $mutex = $this->mutex($kind, self::uniqueName('check'));
        $runs = 0;
        $this->assertSame('done', $mutex->check(fn () => 0 === $runs)->then(function () use (&$runs) {
            ++$runs;

            return 'done';
        }));
        $this->assertFalse($mutex->check(fn () => 0 === $runs)->then(fn () => 'again'));
        $this->assertSame(1, $runs);
    }

    /** @dataProvider kinds */
    public function testTimeoutWhileAnotherProcessHolds(string $kind): void
    {
        $name = self::uniqueName('timeout');
        $mutex = $this->mutex($kind, $name, 1);
        $child = $this->startChild($this->childMutexCode().<<<'PHP'
            mutex($argv[1], $argv[2], 5)->synchronized(function () { echo "held\n"; fgets(STDIN); });
            echo "released\n";
            PHP, [$kind, $name]);
        $this->assertSame('held', $this->readLine($child));
        $start = microtime(true);
        try {
            $mutex->synchronized(fn () => $this->fail('ran without the lock'));
            $this->fail('no timeout');
        } catch (TimeoutException $e) {
            $this->assertSame('Timeout of 1 seconds exceeded.', $e->getMessage());
        }
        $this->assertEqualsWithDelta(1.0, microtime(true) - $start, 0.5);
        // A waiter is woken by the release at once.
        $this->tell($child, 'go');
        $start = microtime(true);
        $this->assertTrue($this->mutex($kind, $name, 5)->synchronized(fn () => true));
        $this->assertLessThan(0.5, microtime(true) - $start);
        $this->assertSame('released', $this->readLine($child));
    }

    /**
     * php-lock's own MySQLMutex holds the name with GET_LOCK alone (no row in the lock table):
     * ours waits for it, and must not end its session (the SharedLock package's rule KILLs any
     * session holding GET_LOCK without a row; a bridge user migrating from MySQLMutex would see
     * its application connections killed).
     */
    public function testMysqlWaitsForTheStockMysqlMutexInsteadOfKillingIt(): void
    {
        $this->requireMysql();
        $name = self::uniqueName('stock-mysql');
        $child = $this->startChild(<<<'PHP'
            $pdo = new PDO($argv[1], $argv[2], $argv[3], [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
            (new malkusch\lock\mutex\MySQLMutex($pdo, $argv[4], 5))->synchronized(function () use ($pdo) {
                echo "held\n";
                for ($i = 0; $i < 25; $i++) { usleep(100000); $pdo->query('SELECT 1'); } // 2.5 s on its session
            });
            echo "released\n";
            PHP, [self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword(), $name]);
        $this->assertSame('held', $this->readLine($child));
        $start = microtime(true);
        $entered = (new MysqlMutex(self::mysqlDsn(), $name, 10, self::mysqlUser(), self::mysqlPassword()))
            ->synchronized(fn () => microtime(true) - $start);
        $this->assertGreaterThan(1.5, $entered, 'entered while the stock mutex held the lock');
        $this->assertSame('released', $this->readLine($child), 'the stock holder finished its work');
        [$code, $stderr] = $this->waitChild($child);
        $this->assertSame(0, $code, $stderr);
    }

    /** @dataProvider kinds */
    public function testFatalErrorReleases(string $kind): void
    {
        $name = self::uniqueName('fatal');
        $mutex = $this->mutex($kind, $name, 1);
        $child = $this->startChild($this->childMutexCode().<<<'PHP'
            mutex($argv[1], $argv[2], 5)->synchronized(function () { echo "held\n"; this_function_does_not_exist(); });
            PHP, [$kind, $name]);
        $this->assertSame('held', $this->readLine($child));
        [$code, $stderr] = $this->waitChild($child);
        $this->assertSame(255, $code, $stderr);
        $this->assertSame('free', $mutex->synchronized(fn () => 'free'));
    }

    /** @dataProvider kinds */
    public function testForkedChildDoesNotRelease(string $kind): void
    {
        $name = self::uniqueName('fork');
        $mutex = $this->mutex($kind, $name, 3);
        $result = $mutex->synchronized(function () use ($kind, $name) {
            $pid = $this->fork(function () use ($kind, $name) {
                return 0; // the child's exit must leave the parent's lock alone
            });
            $this->assertSame(0, $this->waitPid($pid));
            try {
                // One attempt; RedisMutex, as PHPRedisMutex, takes no timeout of 0.
                $this->mutex($kind, $name, 'redis' === $kind ? 1 : 0)->synchronized(fn () => null);

                return 'lost';
            } catch (TimeoutException $e) {
                return 'still held';
            }
        });
        $this->assertSame('still held', $result);
    }

    public function testExecutionOutsideLock(): void
    {
        $mutex = $this->mutex('redis', self::uniqueName('outside'), 1);
        try {
            $mutex->synchronized(function () {
                usleep(1100000);

                return 'late';
            });
            $this->fail('no ExecutionOutsideLockException');
        } catch (ExecutionOutsideLockException $e) {
            $this->assertSame('late', $e->getCodeResult());
            $this->assertStringContainsString('executed outside of the lock', $e->getMessage());
        }
    }

    public function testMysqlLeaseRanOut(): void
    {
        $this->requireMysql();
        $name = self::uniqueName('lease');
        $mutex = new MysqlMutex(self::mysqlDsn(), $name, 1, self::mysqlUser(), self::mysqlPassword(), 1);
        $this->expectException(ExecutionOutsideLockException::class);
        $mutex->synchronized(function () use ($name) {
            usleep(1200000);
            // A waiter takes the lock once the lease has run out.
            $this->assertTrue((new MysqlMutex(self::mysqlDsn(), $name, 3, self::mysqlUser(), self::mysqlPassword()))->synchronized(fn () => true));
        });
    }

    public function testLostLockThrowsLockReleaseException(): void
    {
        $this->requireRedis();
        $name = self::uniqueName('lost');
        $mutex = new RedisMutex(self::redisDsn(), $name, 5);
        $this->expectException(LockReleaseException::class);
        $mutex->synchronized(function () use ($name) {
            self::phpredis()->del('lock_'.$name);
        });
    }

    public function testWireIsPhpLocksRedisMutex(): void
    {
        $this->requireRedis();
        $name = self::uniqueName('wire');
        $stock = new PHPRedisMutex([self::phpredis()], $name, 3);
        $ours = new RedisMutex([self::phpredis()], $name, 1); // PHPRedisMutex's own argument shape
        $stock->synchronized(function () use ($ours, $name) {
            $this->assertSame(1, self::phpredis()->exists('lock_'.$name));
            try {
                $ours->synchronized(fn () => null);
                $this->fail('ours ignored the stock mutex');
            } catch (TimeoutException $e) {
            }
        });
        $ours->synchronized(function () use ($name) {
            $ttl = self::phpredis()->ttl('lock_'.$name);
            $this->assertContains($ttl, [1, 2], 'timeout + 1 seconds, as SpinlockMutex');
        });
    }

    /** @return iterable<string, array{string}> */
    public function nonReentrantKinds(): iterable
    {
        yield 'redis' => ['redis'];
        yield 'filelock' => ['filelock'];
    }

    /** @dataProvider nonReentrantKinds */
    public function testNestedSynchronizedIsContention(string $kind): void
    {
        $name = self::uniqueName('nested');
        $mutex = $this->mutex($kind, $name, 1);
        $innerRan = false;
        $run = function () use ($mutex, &$innerRan) {
            $start = microtime(true);
            try {
                $mutex->synchronized(function () use (&$innerRan) {
                    $innerRan = true;
                });
                $this->fail('the nested synchronized() did not time out');
            } catch (TimeoutException $e) {
                $this->assertEqualsWithDelta(1.0, microtime(true) - $start, 0.5, 'waits out its timeout, as the stock mutexes');
            }
            $this->assertTrue($mutex->getNativeLock()->isHeld(), 'the outer block still holds the lock');

            return 'outer';
        };
        if ('redis' === $kind) {
            // The inner wait used up the time the code may run (SpinlockMutex's rule, as stock).
            try {
                $mutex->synchronized($run);
                $this->fail('no ExecutionOutsideLockException');
            } catch (ExecutionOutsideLockException $e) {
                $this->assertSame('outer', $e->getCodeResult());
            }
        } else {
            $this->assertSame('outer', $mutex->synchronized($run));
        }
        $this->assertFalse($innerRan);
        $this->assertSame('free', $this->mutex($kind, $name, 1)->synchronized(fn () => 'free'), 'released by the outer block');
    }

    /** @return iterable<string, array{string}> */
    public function mysqlKinds(): iterable
    {
        yield 'mysql' => ['mysql'];
        yield 'mysql on a PDO' => ['mysql-pdo'];
    }

    /**
     * MySQLMutex re-enters (GET_LOCK is re-entrant per session): so does ours, and only the outer
     * block releases; another process stays out until then.
     *
     * @dataProvider mysqlKinds
     */
    public function testNestedMysqlSynchronizedReentersAsMySQLMutex(string $kind): void
    {
        $this->requireMysql();
        $name = self::uniqueName('nested-mysql');
        $mutex = $this->mutex($kind, $name, 1);
        $result = $mutex->synchronized(function () use ($mutex, $kind, $name) {
            $inner = $mutex->synchronized(fn () => 'inner');
            $this->assertSame('inner', $inner);
            $this->assertTrue($mutex->getNativeLock()->isHeld(), 'the inner unlock did not release');
            $other = $this->startChild($this->childMutexCode().<<<'PHP'
                try {
                    mutex($argv[1], $argv[2], 1)->synchronized(fn () => null);
                    echo "entered\n";
                } catch (malkusch\lock\exception\TimeoutException $e) {
                    echo "timeout\n";
                }
                PHP, [$kind, $name]);
            $this->assertSame('timeout', $this->readLine($other), 'another process got in under the outer block');

            return 'outer';
        });
        $this->assertSame('outer', $result);
        $this->assertFalse($mutex->getNativeLock()->isHeld(), 'the outer block released');
        $this->assertSame('free', $this->mutex($kind, $name, 1)->synchronized(fn () => 'free'));
    }

    /**
     * A child forked inside a nested synchronized() inherits the nesting, not the lock: its own
     * synchronized() afterwards takes the lock and releases it at its end.
     */
    public function testForkedChildOfANestedBlockReleasesItsOwnLock(): void
    {
        $this->requireMysql();
        $this->requirePcntl();
        $name = self::uniqueName('nested-fork');
        $mutex = $this->mutex('mysql', $name, 5);
        $pid = 0;
        $result = sys_get_temp_dir().'/'.$name.'.result';
        $mutex->synchronized(function () use ($mutex, &$pid, $result) {
            $mutex->synchronized(function () use ($mutex, &$pid, $result) {
                $pid = pcntl_fork();
                if (0 !== $pid) {
                    return;
                }
                $mutex->synchronized(fn () => null); // waits for the parent's release
                file_put_contents($result, var_export($mutex->getNativeLock()->isHeld(), true));
                posix_kill(getmypid(), \SIGKILL); // leave without unwinding the parent's blocks
            });
        });
        $this->waitPid($pid);
        $this->assertSame('false', file_get_contents($result), "the child's block released its lock");
        @unlink($result);
        $this->assertSame('free', $this->mutex('mysql', $name, 1)->synchronized(fn () => 'free'));
    }

    public function testRedisTimeoutMustBePositiveAsStock(): void
    {
        $this->requireRedis();
        foreach ([0, -1] as $timeout) {
            try {
                new PHPRedisMutex([self::phpredis()], 'x', $timeout);
                $this->fail('the stock mutex took the timeout '.$timeout);
            } catch (\LengthException $stock) {
            }
            try {
                new RedisMutex(self::phpredis(), 'x', $timeout);
                $this->fail('RedisMutex took the timeout '.$timeout);
            } catch (\LengthException $e) {
                $this->assertSame($stock->getMessage(), $e->getMessage());
            }
        }
        // The lease ($timeout + 1) of the largest timeout does not overflow.
        $this->assertSame(PHP_INT_MAX, (new RedisMutex(self::redisDsn(), 'x', PHP_INT_MAX))->getTimeout());
    }

    /** @dataProvider prefixedClients */
    public function testRedisMutexHonoursTheClientsPrefix(callable $client): void
    {
        $this->requireRedis();
        $name = self::uniqueName('prefix');
        $stockClient = $client();
        $stock = $stockClient instanceof \Redis ? new PHPRedisMutex([$stockClient], $name, 3) : new PredisMutex([$stockClient], $name, 3);
        $ours = new RedisMutex($client(), $name, 1);
        $stock->synchronized(function () use ($ours, $name) {
            $this->assertSame(['app:lock_'.$name], self::phpredis()->keys('*'.$name));
            try {
                $ours->synchronized(fn () => $this->fail('ours ignored the stock mutex'));
            } catch (TimeoutException $e) {
                $this->addToAssertionCount(1);
            }
        });
        $ours->synchronized(function () use ($name) {
            $this->assertSame(['app:lock_'.$name], self::phpredis()->keys('*'.$name));
        });
        $this->assertSame([], self::phpredis()->keys('*'.$name));
    }

    public function testBadArguments(): void
    {
        $cases = [
            fn () => new RedisMutex(new \stdClass(), 'x'),
            fn () => new RedisMutex([self::phpredis(), self::phpredis()], 'x'),
            fn () => new FilelockMutex('/does/not/exist', 'x'),
            fn () => new FilelockMutex(self::lockDir(), ''),
            fn () => new MysqlMutex('sqlite::memory:', 'x'),
            fn () => new MysqlMutex(self::mysqlDsn(), 'x', 1, 'u', 'p', 0),
        ];
        foreach ($cases as $i => $call) {
            try {
                $call();
                $this->fail("case $i: no exception");
            } catch (\InvalidArgumentException $e) {
                $this->assertNotSame('', $e->getMessage());
            }
        }
    }
}
