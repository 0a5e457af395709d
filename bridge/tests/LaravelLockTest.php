<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests;

use Illuminate\Cache\PhpRedisLock;
use Illuminate\Cache\RedisLock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Redis\Connections\PhpRedisConnection;
use Nativelock\Bridge\Laravel\NativeLock;
use Nativelock\Bridge\Laravel\NativeLockStore;
use Nativelock\FileBackend;
use Nativelock\MysqlBackend;
use Nativelock\RedisBackend;

final class LaravelLockTest extends BridgeTestCase
{
    private const PREFIX = 'laravel_cache:';

    private function redisStore(bool $releaseAtRequestEnd = false): NativeLockStore
    {
        $this->requireRedis();

        return new NativeLockStore(new RedisBackend(self::redisDsn()), null, self::PREFIX, $releaseAtRequestEnd);
    }

    private function stockLock(string $name, int $seconds, ?string $owner = null): RedisLock
    {
        // What Illuminate\Cache\RedisStore::lock() builds on a phpredis connection.
        return new PhpRedisLock(new PhpRedisConnection(self::phpredis()), self::PREFIX.$name, $seconds, $owner);
    }

    public function testWireIsLaravelsRedisLock(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('wire');
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());
        $redis = self::phpredis();
        $this->assertSame($lock->owner(), $redis->get(self::PREFIX.$name));
        $ttl = $redis->ttl(self::PREFIX.$name);
        $this->assertGreaterThan(8, $ttl);
        $this->assertLessThanOrEqual(10, $ttl);
        $this->assertFalse($store->lock($name, 10)->get(), 'held');
        $this->assertFalse($lock->get(), 'not re-entrant, as Laravel');
        $this->assertTrue($lock->release());
        $this->assertSame(0, $redis->exists(self::PREFIX.$name));
        $this->assertFalse($lock->release(), 'a second release finds nothing');
    }

    public function testStockLockExcludesNativeAndBack(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('interop');
        $stock = $this->stockLock($name, 10);
        $this->assertTrue($stock->get());
        $native = $store->lock($name, 10);
        $this->assertFalse($native->get());
        // The native lock restores the stock lock's owner and releases it (compare-and-delete).
        $this->assertFalse($store->restoreLock($name, 'somebody-else')->release());
        $this->assertTrue($store->restoreLock($name, $stock->owner())->release());
        $this->assertTrue($native->get());
        $this->assertFalse($this->stockLock($name, 10)->get(), 'the stock lock sees the native one');
        // ... and the stock lock releases the native one with its owner.
        $this->assertTrue($this->stockLock($name, 0, $native->owner())->release());
        $this->assertTrue($this->stockLock($name, 10)->get());
    }

    public function testInteropWithPredisRedisLock(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('predis');
        $predis = new \Illuminate\Redis\Connections\PredisConnection(new \Predis\Client(['host' => self::redisHost(), 'port' => self::redisPort()]));
        $stock = new RedisLock($predis, self::PREFIX.$name, 10);
        $this->assertTrue($stock->get());
        $this->assertFalse($store->lock($name, 10)->get());
        $this->assertTrue($stock->release());
        $native = $store->lock($name, 10);
        $this->assertTrue($native->get());
        $this->assertFalse((new RedisLock($predis, self::PREFIX.$name, 10))->get());
        $this->assertTrue((new RedisLock($predis, self::PREFIX.$name, 0, $native->owner()))->release());
    }

    public function clientDrivers(): iterable
    {
        yield 'phpredis' => ['phpredis'];
        yield 'predis' => ['predis'];
    }

    /** Laravel's cache store "redis" on a connection with Laravel 8's default options.prefix. */
    private function laravelRedisStore(string $driver, array $options = []): \Illuminate\Cache\RedisStore
    {
        $this->requireRedis();
        $redis = new \Illuminate\Redis\RedisManager(null, $driver, [
            'options' => ['prefix' => 'laravel_database_'],
            'default' => ['host' => self::redisHost(), 'port' => self::redisPort(), 'database' => 0] + $options,
        ]);

        return new \Illuminate\Cache\RedisStore($redis, 'laravel_cache', 'default');
    }

    /** @dataProvider clientDrivers */
    public function testClientKeyPrefixIsLaravels(string $driver): void
    {
        $laravel = $this->laravelRedisStore($driver);
        $store = NativeLockStore::fromConfig(['backend' => 'redis', 'store' => 'redis'], $laravel);
        $name = self::uniqueName('optprefix');
        $stock = $laravel->lock($name, 10);
        $this->assertTrue($stock->get());
        $this->assertSame(['laravel_database_laravel_cache:'.$name], self::phpredis()->keys('*'.$name));
        $native = $store->lock($name, 10);
        $this->assertFalse($native->get(), 'the stock lock\'s key carries the client\'s prefix');
        $this->assertTrue($store->restoreLock($name, $stock->owner())->release());
        $this->assertTrue($native->get());
        $this->assertSame($native->owner(), self::phpredis()->get('laravel_database_laravel_cache:'.$name));
        $this->assertFalse($laravel->lock($name, 10)->get(), 'the stock lock sees the native one');
        $this->assertTrue($laravel->restoreLock($name, $native->owner())->release());
        // A store given the client itself ("connection") prefixes the same way.
        $direct = NativeLockStore::fromConfig(['backend' => 'redis', 'connection' => $laravel->lockConnection()->client(), 'prefix' => 'laravel_cache:']);
        $this->assertTrue($stock->get());
        $this->assertFalse($direct->lock($name, 10)->get());
        $this->assertTrue($stock->release());
    }

    public function testSerializingClientIsRefused(): void
    {
        $cases = ['serializer' => ['serializer' => \Redis::SERIALIZER_PHP]];
        if (\defined('Redis::COMPRESSION_LZF')) {
            $cases['compression'] = ['compression' => \Redis::COMPRESSION_LZF];
        }
        foreach ($cases as $what => $options) {
            // Laravel's RedisLock would store the owner serialized (or compressed): not ours.
            $laravel = $this->laravelRedisStore('phpredis', $options);
            try {
                NativeLockStore::fromConfig(['backend' => 'redis', 'store' => 'redis'], $laravel);
                $this->fail("a client with a $what was accepted");
            } catch (\InvalidArgumentException $e) {
                $this->assertStringContainsString($what, $e->getMessage());
            }
        }
    }

    public function testExpiredLockCanBeTakenAgain(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('expired');
        $lock = $store->lock($name, 1);
        $this->assertTrue($lock->get());
        usleep(1200000);
        $this->assertSame(0, self::phpredis()->exists(self::PREFIX.$name), 'the TTL ended it');
        $this->assertTrue($lock->get(), 'free again, as for Laravel\'s RedisLock');
        $this->assertSame($lock->owner(), self::phpredis()->get(self::PREFIX.$name));
        $this->assertFalse($lock->get(), 'held now: not re-entrant');
        usleep(1200000);
        $this->assertTrue($lock->block(1), 'block() takes an expired lock at once');
        $this->assertTrue($lock->release());
    }

    public function testForceReleasedLockCanBeTakenAgain(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('forceget');
        $lock = $store->lock($name, 60);
        $this->assertTrue($lock->get());
        $lock->forceRelease();
        $this->assertTrue($lock->get());
        // Also when another object forced it out.
        $store->lock($name)->forceRelease();
        $this->assertTrue($lock->block(1));
        $this->assertTrue($lock->release());
    }

    public function testForkedChildAcquiresUnderANewOwner(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('forkowner');
        $lock = $store->lock($name, 30);
        $parentOwner = $lock->owner();
        $pid = $this->fork(function () use ($lock, $parentOwner, $name) {
            // Not released at the child's end (no callback): the lock stays for the parent to see.
            return $lock->get() && $lock->owner() !== $parentOwner && self::phpredis()->get(self::PREFIX.$name) === $lock->owner();
        });
        $this->assertSame(0, $this->waitPid($pid));
        $childOwner = self::phpredis()->get(self::PREFIX.$name);
        $this->assertIsString($childOwner, 'the child took the lock');
        $this->assertNotSame($parentOwner, $childOwner);
        $this->assertFalse($lock->release(), 'the parent\'s copy cannot release the child\'s lock');
        $this->assertSame($childOwner, self::phpredis()->get(self::PREFIX.$name));
        $this->assertTrue($store->restoreLock($name, $childOwner)->release());
    }

    public function testMysqlLongNames(): void
    {
        $this->requireMysql();
        $store = new NativeLockStore(new MysqlBackend(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword()), null, self::PREFIX);
        $id = self::uniqueName('');
        foreach ([60, 100, 300] as $length) {
            // A ShouldBeUnique key: "laravel_unique_job:" . the job class . its id.
            $name = str_pad('laravel_unique_job:App\\Jobs\\'.$id, $length, 'X');
            $lock = $store->lock($name, 10);
            $this->assertTrue($lock->get(), "$length characters");
            $this->assertFalse($store->lock($name, 10)->get(), "$length characters: the same lock");
            $this->assertTrue($lock->release());
        }
        // Two long names that differ only at the end are two locks.
        $a = $store->lock(str_repeat('a', 80).$id.'1', 10);
        $b = $store->lock(str_repeat('a', 80).$id.'2', 10);
        $this->assertTrue($a->get());
        $this->assertTrue($b->get());
        $this->assertTrue($a->release());
        $this->assertTrue($b->release());
    }

    public function testBlockWakesOnStockRelease(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('wake');
        $child = $this->startChild(<<<'PHP'
            $lock = new Illuminate\Cache\PhpRedisLock(new Illuminate\Redis\Connections\PhpRedisConnection((function () { $r = new Redis(); $r->connect($GLOBALS['argv'][1], (int) $GLOBALS['argv'][2]); return $r; })()), $argv[3], 30);
            echo $lock->get() ? "held\n" : "busy\n";
            usleep(300000);
            echo $lock->release() ? "released\n" : "lost\n";
            PHP, [self::redisHost(), self::redisPort(), self::PREFIX.$name]);
        $this->assertSame('held', $this->readLine($child));
        $start = microtime(true);
        $this->assertTrue($store->lock($name, 10)->block(5));
        $waited = microtime(true) - $start;
        $this->assertSame('released', $this->readLine($child));
        $this->assertLessThan(2.0, $waited, 'a stock releaser is noticed by the fallback poll');
    }

    public function testHandOffAcrossProcessesIsNative(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('handoff');
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Laravel\NativeLockStore(new Nativelock\RedisBackend($argv[1]), null, 'laravel_cache:');
            $lock = $store->lock($argv[2], 30);
            echo $lock->get() ? "held\n" : "busy\n";
            fgets(STDIN);
            $lock->release();
            echo microtime(true), "\n";
            PHP, [self::redisDsn(), $name]);
        $this->assertSame('held', $this->readLine($child));
        $waiter = $store->lock($name, 10);
        $this->tell($child, 'go');
        $this->assertTrue($waiter->block(5));
        $got = microtime(true);
        $released = (float) $this->readLine($child);
        $this->assertLessThan(0.1, $got - $released, 'woken by the release, not by a 250 ms sleep');
        $this->assertTrue($waiter->release());
    }

    public function testBlockTimesOut(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('timeout');
        $this->assertTrue($store->lock($name, 10)->get());
        $start = microtime(true);
        try {
            $store->lock($name, 10)->block(1);
            $this->fail('block() got a held lock');
        } catch (LockTimeoutException $e) {
        }
        $this->assertEqualsWithDelta(1.0, microtime(true) - $start, 0.5);
    }

    public function testBlockWithCallbackReleases(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('callback');
        $this->assertSame(42, $store->lock($name, 10)->block(1, fn () => 42));
        $this->assertSame(43, $store->lock($name, 10)->get(fn () => 43));
        $this->assertSame(0, self::phpredis()->exists(self::PREFIX.$name));
    }

    public function testZeroSecondsMeansNoExpiry(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('forever');
        $lock = $store->lock($name);
        $this->assertTrue($lock->get());
        $ttl = self::phpredis()->ttl(self::PREFIX.$name);
        $this->assertTrue(-1 === $ttl || $ttl > 86400 * 365, "TTL $ttl: no expiry");
        $lock->forceRelease();
        $this->assertSame(0, self::phpredis()->exists(self::PREFIX.$name));
    }

    public function testForceReleaseOfAnotherOwner(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('force');
        $this->assertTrue($this->stockLock($name, 10)->get());
        $store->lock($name)->forceRelease();
        $this->assertTrue($store->lock($name, 10)->get());
    }

    public function testRestoreLockAcrossProcesses(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('restore');
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Laravel\NativeLockStore(new Nativelock\RedisBackend($argv[1]), null, 'laravel_cache:', true);
            $lock = $store->lock($argv[2], 30);
            if (!$lock->get()) { echo "busy\n"; exit(1); }
            echo $lock->owner(), "\n"; // the owner leaves the process: request end must not release
            PHP, [self::redisDsn(), $name]);
        $owner = $this->readLine($child);
        [$code, $stderr] = $this->waitChild($child);
        $this->assertSame(0, $code, $stderr);
        $this->assertSame($owner, self::phpredis()->get(self::PREFIX.$name), 'still held after the child ended');
        $this->assertFalse($store->lock($name, 10)->get());
        $restored = $store->restoreLock($name, $owner);
        $this->assertSame($owner, $restored->owner());
        $this->assertTrue($restored->release());
        $this->assertTrue($store->lock($name, 10)->get());
    }

    public function testBareLockOutlivesTheRequestLikeLaravels(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('outlive');
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Laravel\NativeLockStore(new Nativelock\RedisBackend($argv[1]), null, 'laravel_cache:');
            echo $store->lock($argv[2], 30)->get() ? "held\n" : "busy\n";
            PHP, [self::redisDsn(), $name]);
        $this->assertSame('held', $this->readLine($child));
        $this->waitChild($child);
        $this->assertFalse($store->lock($name, 10)->get(), '"at most once per 30 s": the TTL ends it, not the request');
    }

    public function testFatalErrorInCallbackReleases(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('fatal');
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Laravel\NativeLockStore(new Nativelock\RedisBackend($argv[1]), null, 'laravel_cache:');
            $store->lock($argv[2], 300)->get(function () {
                echo "held\n";
                this_function_does_not_exist();
            });
            PHP, [self::redisDsn(), $name]);
        $this->assertSame('held', $this->readLine($child));
        [$code, $stderr] = $this->waitChild($child);
        $this->assertSame(255, $code);
        $this->assertStringContainsString('this_function_does_not_exist', $stderr);
        $this->assertTrue($store->lock($name, 10)->get(), 'released at request end after the fatal error');
    }

    public function testReleaseAtRequestEndOption(): void
    {
        $store = $this->redisStore(true);
        $name = self::uniqueName('reqend');
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Laravel\NativeLockStore(new Nativelock\RedisBackend($argv[1]), null, 'laravel_cache:', true);
            echo $store->lock($argv[2], 300)->get() ? "held\n" : "busy\n";
            exit(0);
            PHP, [self::redisDsn(), $name]);
        $this->assertSame('held', $this->readLine($child));
        $this->waitChild($child);
        $this->assertTrue($store->lock($name, 10)->get());
    }

    public function testForkedChildDoesNotReleaseParentsLock(): void
    {
        $store = $this->redisStore(true);
        $name = self::uniqueName('fork');
        $lock = $store->lock($name, 30);
        $this->assertTrue($lock->get());
        $pid = $this->fork(function () use ($lock) {
            $released = $lock->release(); // the parent's lock is not the child's
            unset($lock);

            return $released ? 3 : 0;
        });
        $this->assertSame(0, $this->waitPid($pid));
        $this->assertSame($lock->owner(), self::phpredis()->get(self::PREFIX.$name));
        $this->assertTrue($lock->release());
    }

    public function testFileBackend(): void
    {
        $dir = self::lockDir();
        $store = new NativeLockStore(new FileBackend($dir));
        $name = self::uniqueName('file');
        $lock = $store->lock($name);
        $this->assertTrue($lock->get());
        $this->assertFileExists($dir.'/'.$name.'.lock');
        $this->assertFalse($store->lock($name)->get());
        $this->assertTrue($lock->release());
        $this->assertTrue($store->lock($name)->block(1, fn () => true));
        $other = $store->lock($name);
        $this->assertTrue($other->get());
        $store->lock($name)->forceRelease();
        $this->assertFileDoesNotExist($dir.'/'.$name.'.lock');
    }

    public function testFileKeysThatFilelockWouldWriteAlikeAreDistinctLocks(): void
    {
        // Filelock writes every byte outside [A-Za-z0-9_] as "_": until 2026-12-08 "x:report"
        // and "x_report" were one lock file, and forceRelease() of one freed the other's holder.
        $dir = self::lockDir();
        $store = new NativeLockStore(new FileBackend($dir));
        $base = self::uniqueName('file-alike');
        $colon = $store->lock($base.':report', 10);
        $this->assertTrue($colon->get());
        $underscore = $store->lock($base.'_report', 10);
        $this->assertTrue($underscore->get(), 'another name is another lock');
        $this->assertTrue($underscore->release());
        $store->lock($base.'_report')->forceRelease();
        $this->assertFalse($store->lock($base.':report', 10)->get(), 'forceRelease() of another name left it held');
        $store->lock($base.':report')->forceRelease();
        $again = $store->lock($base.':report', 10);
        $this->assertTrue($again->get(), 'forceRelease() of the name freed it');
        $this->assertTrue($again->release());
    }

    public function testFileBackendTakesLongNames(): void
    {
        $dir = self::lockDir();
        $store = new NativeLockStore(new FileBackend($dir));
        // ShouldBeUnique keys (prefix, job class, unique id) can outgrow a file name.
        $name = self::uniqueName('file-long').str_repeat('App\\Jobs\\ProcessPodcast', 20);
        $this->assertGreaterThan(255, \strlen($name));
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());
        $this->assertFalse($store->lock($name, 10)->get(), 'the same long name is the same lock');
        $second = $store->lock($name.'2', 10);
        $this->assertTrue($second->get(), 'another long name is another lock');
        $this->assertTrue($second->release());
        $this->assertTrue($lock->release());
        $this->assertTrue($store->lock($name, 10)->block(1, fn () => true));
        $other = $store->lock($name, 10);
        $this->assertTrue($other->get());
        $store->lock($name)->forceRelease();
        $again = $store->lock($name, 10);
        $this->assertTrue($again->get(), 'forceRelease() freed the long name');
        $this->assertTrue($again->release());
    }

    public function testFileLockForceReleasedElsewhereIsTakenAgainByItsHolder(): void
    {
        $dir = self::lockDir();
        $store = new NativeLockStore(new FileBackend($dir));
        $name = self::uniqueName('file-forced');
        $lock = $store->lock($name);
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->getNativeLock()->isHeld());
        $store->lock($name)->forceRelease(); // another object (or process) removes the lock file
        $this->assertFalse($lock->getNativeLock()->isHeld(), 'the file says it is gone');
        $start = microtime(true);
        $this->assertTrue($lock->block(5), 'as Laravel\'s: a force-released lock is free for its old holder too');
        $this->assertLessThan(1.0, microtime(true) - $start, 'at once, not after the 5 s');
        $this->assertTrue($lock->release());
    }

    public function testBlockOnItsOwnHeldLockWaitsUntilItLapses(): void
    {
        $store = $this->redisStore();
        $name = self::uniqueName('own-block');
        $lock = $store->lock($name, 1);
        $this->assertTrue($lock->get());
        $this->assertFalse($lock->get(), 'not re-entrant');
        $start = microtime(true);
        $this->assertTrue($lock->block(10), 'as Laravel\'s: retried until its TTL lapsed');
        $waited = microtime(true) - $start;
        $this->assertGreaterThan(0.5, $waited);
        $this->assertLessThan(5.0, $waited);
        $this->assertTrue($lock->release());

        $forever = $store->lock($name, 0);
        $this->assertTrue($forever->get());
        $start = microtime(true);
        try {
            $forever->block(1);
            $this->fail('block() got a lock this object holds without expiry');
        } catch (LockTimeoutException $e) {
        }
        $this->assertEqualsWithDelta(1.0, microtime(true) - $start, 0.5);
        $this->assertTrue($forever->release(), 'the hold it waited on is intact');
    }

    public function testMysqlBackend(): void
    {
        $this->requireMysql();
        $store = new NativeLockStore(new MysqlBackend(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword()));
        $name = self::uniqueName('mysql');
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());
        $this->assertFalse($store->lock($name, 10)->get(), 'ownership per lock object, not per session');
        $start = microtime(true);
        try {
            $store->lock($name, 10)->block(1);
            $this->fail('block() got a held lock');
        } catch (LockTimeoutException $e) {
        }
        $this->assertEqualsWithDelta(1.0, microtime(true) - $start, 0.6);
        $this->assertTrue($lock->release());
        $this->assertSame('ok', $store->lock($name, 10)->block(1, fn () => 'ok'));
    }

    public function testMysqlOnTheApplicationsPdo(): void
    {
        $this->requireMysql();
        $pdo = new \PDO(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword(), [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $store = NativeLockStore::fromConfig(['backend' => 'mysql', 'pdo' => $pdo]);
        $name = self::uniqueName('mysqlpdo');
        $lock = $store->lock($name, 10);
        $this->assertTrue($lock->get());
        $this->assertSame(1, (int) $pdo->query('SELECT IS_USED_LOCK('.$pdo->quote($name).') = CONNECTION_ID()')->fetchColumn(), 'the lock lives in the PDO\'s session');
        $this->assertFalse($store->lock($name, 10)->get(), 'ownership per lock object, not per session');
        $other = new NativeLockStore(new MysqlBackend(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword()));
        $this->assertFalse($other->lock($name, 10)->get());
        $this->assertTrue($lock->release());
        $this->assertSame('ok', $other->lock($name, 10)->block(1, fn () => 'ok'));
        // forceRelease() of a lock this session holds releases it and ends nothing.
        $this->assertTrue($lock->get());
        $store->lock($name)->forceRelease();
        $this->assertTrue($other->lock($name, 10)->get());
        $this->assertSame(1, (int) $pdo->query('SELECT 1')->fetchColumn(), 'the application\'s session lives on');
        $this->expectException(\InvalidArgumentException::class);
        NativeLockStore::fromConfig(['backend' => 'mysql', 'pdo' => 'not a PDO']);
    }

    public function testMysqlForceReleaseOfAnotherProcess(): void
    {
        $this->requireMysql();
        $store = new NativeLockStore(new MysqlBackend(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword()));
        $name = self::uniqueName('mysqlforce');
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Laravel\NativeLockStore(new Nativelock\MysqlBackend($argv[1], $argv[2], $argv[3]));
            $lock = $store->lock($argv[4], 300);
            echo $lock->get() ? "held\n" : "busy\n";
            fgets(STDIN);
            echo $lock->release() ? "released\n" : "lost\n";
            PHP, [self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword(), $name]);
        $this->assertSame('held', $this->readLine($child));
        $this->assertFalse($store->lock($name, 10)->get());
        $store->lock($name)->forceRelease();
        $mine = $store->lock($name, 10);
        $this->assertTrue($mine->get(), 'free right after forceRelease(), not after the 300 s TTL');
        $this->tell($child, 'go');
        $this->assertSame('lost', $this->readLine($child), 'the forced-out holder is told');
        $this->waitChild($child);
        $this->assertFalse($store->lock($name, 10)->get(), 'the old holder\'s release did not free ours');
        $this->assertTrue($mine->release());
        // Our own lock: forceRelease() frees it without ending anything else.
        $this->assertTrue($mine->get());
        $mine->forceRelease();
        $this->assertTrue($store->lock($name, 10)->get());
    }

    public function testFromConfig(): void
    {
        $this->requireRedis();
        $store = NativeLockStore::fromConfig(['backend' => 'redis', 'url' => self::redisDsn(), 'prefix' => 'p:']);
        $this->assertSame('p:', $store->getPrefix());
        $this->assertInstanceOf(NativeLock::class, $store->lock('x'));
        $this->assertInstanceOf(NativeLockStore::class, NativeLockStore::fromConfig(['backend' => 'file', 'path' => self::lockDir()]));
    }

    public function testServiceProviderRegistersTheDriver(): void
    {
        $this->requireRedis();
        // The little of a Laravel container that CacheManager and the provider use.
        $app = new class(['config' => [
            'cache.default' => 'locks',
            'cache.stores.locks' => ['driver' => 'nativelock', 'backend' => 'redis', 'url' => self::redisDsn(), 'prefix' => self::PREFIX],
        ]]) extends \ArrayObject {
            public function bound($abstract): bool
            {
                return $this->offsetExists($abstract);
            }
        };
        $app['cache'] = new \Illuminate\Cache\CacheManager($app);
        (new \Nativelock\Bridge\Laravel\NativelockServiceProvider($app))->boot();
        $repository = $app['cache']->store('locks');
        $this->assertInstanceOf(NativeLockStore::class, $repository->getStore());
        $name = self::uniqueName('provider');
        $lock = $repository->lock($name, 10);
        $this->assertInstanceOf(NativeLock::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertFalse($this->stockLock($name, 10)->get());
        $this->assertTrue($repository->restoreLock($name, $lock->owner())->release());
    }

    /** @dataProvider badConfigs */
    public function testBadConfig(array $config, string $message): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($message);
        NativeLockStore::fromConfig($config);
    }

    public function badConfigs(): iterable
    {
        yield 'no backend' => [[], 'needs "backend"'];
        yield 'unknown backend' => [['backend' => 'memcached'], '"memcached" given'];
        yield 'redis without url' => [['backend' => 'redis'], 'needs "url"'];
        yield 'file without path' => [['backend' => 'file'], 'needs "path"'];
        yield 'mysql without dsn' => [['backend' => 'mysql'], 'needs "dsn"'];
    }

    public function testBadArguments(): void
    {
        $store = new NativeLockStore(new FileBackend(self::lockDir()));
        foreach ([fn () => $store->lock('x', -1), fn () => $store->lock('x', 'soon'), fn () => $store->lock(''), fn () => $store->restoreLock('x', ''), fn () => $store->lock('x')->block(-1)] as $i => $call) {
            try {
                $call();
                $this->fail("case $i did not throw");
            } catch (\InvalidArgumentException $e) {
                $this->assertNotSame('', $e->getMessage());
            }
        }
    }

    public function testPasswordNeverInMessages(): void
    {
        try {
            NativeLockStore::fromConfig(['backend' => 'mysql', 'dsn' => 'mysql:host=127.0.0.1;port=1;dbname=x', 'username' => 'u', 'password' => 'Sup3rS3cret'])->lock('x')->get();
            $this->fail('no error for an unreachable server');
        } catch (\Throwable $e) {
            $this->assertStringNotContainsString('Sup3rS3cret', $e->getMessage());
            $this->assertStringNotContainsString('Sup3rS3cret', (string) $e);
        }
    }
}
