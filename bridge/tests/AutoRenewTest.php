<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests;

use malkusch\lock\exception\ExecutionOutsideLockException;
use Nativelock\Bridge\Laravel\NativeLockStore;
use Nativelock\Bridge\PhpLock\RedisMutex;
use Nativelock\Bridge\Symfony\MysqlStore;
use Nativelock\Bridge\Symfony\RedisStore;
use Nativelock\RedisBackend;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;

/**
 * nativelock.auto_renew under the adapters: a lock with a 1 s TTL (2 s on MySQL, whose rows count
 * whole seconds) stays held for 3 s while its store releases at request end, and is free right
 * after release(). A detached lock (releaseAtRequestEnd false) lives by its TTL.
 */
final class AutoRenewTest extends BridgeTestCase
{
    private string $previous;

    protected function setUp(): void
    {
        $this->previous = (string) ini_get('nativelock.auto_renew');
        ini_set('nativelock.auto_renew', '1');
    }

    protected function tearDown(): void
    {
        ini_set('nativelock.auto_renew', $this->previous);
    }

    public function testSymfonyStoresKeepTheirLocksPastTheTtl(): void
    {
        $this->requireRedis();
        $this->requireMysql();
        foreach ([[new RedisStore(self::phpredis(), 1.0), new RedisStore(self::phpredis(), 1.0)],
                  [new MysqlStore(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword(), 2.0),
                   new MysqlStore(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword(), 2.0)]] as [$holder, $contender]) {
            $resource = self::uniqueName('symfony-renew');
            $key = new Key($resource);
            $holder->save($key);
            usleep(3_000_000);
            try {
                $contender->save(new Key($resource));
                $this->fail(\get_class($holder).': the lock was free after its TTL although renewed');
            } catch (LockConflictedException $e) {
            }
            $this->assertTrue($holder->exists($key));
            $holder->delete($key);
            $other = new Key($resource);
            $contender->save($other);
            $contender->delete($other);
        }
    }

    public function testLaravelLockIsKeptPastItsSeconds(): void
    {
        $this->requireRedis();
        $store = new NativeLockStore(new RedisBackend(self::redisDsn()), null, 'laravel_cache:', true);
        $name = self::uniqueName('laravel-renew');
        $lock = $store->lock($name, 1);
        $this->assertTrue($lock->get());
        usleep(3_000_000);
        $this->assertFalse($store->lock($name, 1)->get(), 'renewed past its 1 s');
        $this->assertTrue($lock->release());
        $other = $store->lock($name, 1);
        $this->assertTrue($other->get());
        $other->release();
    }

    public function testPhpLockCodeRunningPastItsTimeoutUnderARenewedLockKeepsItsResult(): void
    {
        // RedisMutex's timeout is also the time the code may run under the lock; with the lock
        // renewed meanwhile, running longer is not "outside the lock" (until 2026-12-08 it threw
        // ExecutionOutsideLockException and the result was lost).
        $this->requireRedis();
        $mutex = new RedisMutex(self::redisDsn(), self::uniqueName('phplock-renew'), 2);
        $this->assertSame('done', $mutex->synchronized(function () {
            usleep(3_500_000);

            return 'done';
        }));
        ini_set('nativelock.auto_renew', '0');
        $mutex = new RedisMutex(self::redisDsn(), self::uniqueName('phplock-unrenewed'), 1);
        $this->expectException(ExecutionOutsideLockException::class);
        $mutex->synchronized(fn () => usleep(1_500_000));
    }

    public function testDetachedLocksLiveByTheirTtl(): void
    {
        $this->requireRedis();
        $store = new NativeLockStore(new RedisBackend(self::redisDsn()), null, 'laravel_cache:', false);
        $name = self::uniqueName('laravel-detached');
        $this->assertTrue($store->lock($name, 1)->get());
        usleep(2_200_000);
        $this->assertTrue($store->lock($name, 1)->get(), 'a detached lock is not renewed');
    }
}
