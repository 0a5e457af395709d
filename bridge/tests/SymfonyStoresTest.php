<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests;

use Nativelock\Bridge\Symfony\FilelockStore;
use Nativelock\Bridge\Symfony\MysqlStore;
use Nativelock\Bridge\Symfony\RedisStore;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockAcquiringException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Exception\UnserializableKeyException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\PersistingStoreInterface;

/** What every bridge store does alike: LockFactory use, hand-off, fatal-error release, fork. */
final class SymfonyStoresTest extends BridgeTestCase
{
    public function stores(): iterable
    {
        yield 'redis' => ['redis'];
        yield 'filelock' => ['filelock'];
        yield 'mysql' => ['mysql'];
        yield 'mysql on a PDO' => ['mysql-pdo'];
    }

    private function store(string $kind): PersistingStoreInterface
    {
        switch ($kind) {
            case 'redis':
                $this->requireRedis();

                return new RedisStore(self::phpredis());
            case 'filelock':
                return new FilelockStore(self::lockDir());
            case 'mysql-pdo':
                $this->requireMysql();

                return new MysqlStore(self::mysqlPdo());
            default:
                $this->requireMysql();

                return new MysqlStore(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword());
        }
    }

    private static function mysqlPdo(): \PDO
    {
        return new \PDO(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword(), [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
    }

    /** PHP for a child that builds the same store; $argv[1] is the kind. */
    private function childStoreCode(): string
    {
        return sprintf(<<<'PHP'
            function store(string $kind) {
                switch ($kind) {
                    case 'redis': return new Nativelock\Bridge\Symfony\RedisStore(%s);
                    case 'filelock': return new Nativelock\Bridge\Symfony\FilelockStore(%s);
                    case 'mysql-pdo': return new Nativelock\Bridge\Symfony\MysqlStore($GLOBALS['pdo'] = new PDO(%3$s, %4$s, %5$s));
                    default: return new Nativelock\Bridge\Symfony\MysqlStore(%3$s, %4$s, %5$s);
                }
            }

            PHP, var_export(self::redisDsn(), true), var_export(self::lockDir(), true), var_export(self::mysqlDsn(), true), var_export(self::mysqlUser(), true), var_export(self::mysqlPassword(), true));
    }

    /** @dataProvider stores */
    public function testLockFactoryCycle(string $kind): void
    {
        $factory = new LockFactory($this->store($kind));
        $name = self::uniqueName('factory');
        $lock = $factory->createLock($name, 30);
        $this->assertTrue($lock->acquire());
        $this->assertTrue($lock->isAcquired());
        $other = $factory->createLock($name, 30);
        $this->assertFalse($other->acquire());
        $lock->refresh();
        $lock->release();
        $this->assertFalse($lock->isAcquired());
        $this->assertTrue($other->acquire(true));
        $other->release();
    }

    /**
     * A resource the backend cannot take (Redis and MySQL refuse an empty name) is the
     * component's exception, which Lock wraps (LockAcquiringException); until 2026-12-08 it was
     * a \ValueError, which escaped Lock::acquire().
     *
     * @dataProvider stores
     */
    public function testAnEmptyResourceIsTheComponentsException(string $kind): void
    {
        $lock = (new LockFactory($this->store($kind)))->createLock('');
        try {
            $acquired = $lock->acquire();
            $this->assertSame('filelock', $kind, 'only the file store names every resource');
            $this->assertTrue($acquired);
            $lock->release();
        } catch (LockAcquiringException $e) {
            $this->assertInstanceOf(InvalidArgumentException::class, $e->getPrevious());
        }
    }

    /** @dataProvider stores */
    public function testKeysAreUnserializable(string $kind): void
    {
        $store = $this->store($kind);
        $key = new Key(self::uniqueName('ser'));
        $store->save($key);
        try {
            $this->expectException(UnserializableKeyException::class);
            serialize($key);
        } finally {
            $store->delete($key);
        }
    }

    /** @dataProvider stores */
    public function testHandOffAcrossProcesses(string $kind): void
    {
        $store = $this->store($kind);
        $name = self::uniqueName('handoff');
        $child = $this->startChild($this->childStoreCode().<<<'PHP'
            $lock = (new Symfony\Component\Lock\LockFactory(store($argv[1])))->createLock($argv[2], 30);
            echo $lock->acquire() ? "held\n" : "busy\n";
            fgets(STDIN);
            $lock->release();
            echo microtime(true), "\n";
            PHP, [$kind, $name]);
        $this->assertSame('held', $this->readLine($child));
        $lock = (new LockFactory($store))->createLock($name, 30);
        $this->assertFalse($lock->acquire());
        $this->tell($child, 'go');
        $this->assertTrue($lock->acquire(true));
        $got = microtime(true);
        $released = (float) $this->readLine($child);
        $this->assertLessThan(0.05, $got - $released, 'woken by the release, not by a 100 ms poll');
        $lock->release();
    }

    /** @dataProvider stores */
    public function testFatalErrorReleases(string $kind): void
    {
        $store = $this->store($kind);
        $name = self::uniqueName('fatal');
        $child = $this->startChild($this->childStoreCode().<<<'PHP'
            $lock = (new Symfony\Component\Lock\LockFactory(store($argv[1])))->createLock($argv[2], 300);
            echo $lock->acquire() ? "held\n" : "busy\n";
            this_function_does_not_exist();
            PHP, [$kind, $name]);
        $this->assertSame('held', $this->readLine($child));
        [$code, $stderr] = $this->waitChild($child);
        $this->assertSame(255, $code, $stderr);
        $this->assertStringContainsString('this_function_does_not_exist', $stderr);
        $key = new Key($name);
        $store->save($key); // at once: not after the 300 s TTL
        $this->assertTrue($store->exists($key));
        $store->delete($key);
    }

    /** @dataProvider stores */
    public function testForkedChildDoesNotReleaseParentsLock(string $kind): void
    {
        $store = $this->store($kind);
        $name = self::uniqueName('fork');
        $lock = (new LockFactory($store))->createLock($name, 30);
        $this->assertTrue($lock->acquire());
        // Symfony #40325: the child's destructor (autoRelease) and exit must leave the lock alone.
        $pid = $this->fork(function () use (&$lock) {
            $lock = null;

            return 0;
        });
        $this->assertSame(0, $this->waitPid($pid));
        $this->assertTrue($lock->isAcquired());
        $other = new Key($name);
        try {
            $store->save($other);
            $this->fail('the forked child released the parent\'s lock');
        } catch (LockConflictedException $e) {
        }
        $lock->release();
    }

    /** @dataProvider stores */
    public function testExpiredKeyIsRefused(string $kind): void
    {
        $store = $this->store($kind);
        $key = new Key(self::uniqueName('expired'));
        $key->reduceLifetime(0);
        $this->expectException(LockExpiredException::class);
        $store->save($key);
    }

    public function testFilelockInteropWithFilelock(): void
    {
        $dir = self::lockDir().'/';
        $store = new FilelockStore($dir);
        $name = self::uniqueName('interop');
        $saved = \Filelock::$lockpath;
        \Filelock::$lockpath = $dir;
        try {
            $filelock = new \Filelock($name);
            $this->assertSame(\LOCKFILE_SUCCESS, $filelock->try_lock());
            $key = new Key($name);
            try {
                $store->save($key);
                $this->fail('the store ignored a Filelock');
            } catch (LockConflictedException $e) {
            }
            $filelock->unlock();
            $store->save($key);
            $this->assertSame(\LOCKFILE_ERROR_ALREADY_LOCKED, (new \Filelock($name))->try_lock());
            $store->delete($key);
        } finally {
            \Filelock::$lockpath = $saved;
        }
    }

    public function testFilelockNamesNeverCollide(): void
    {
        $this->assertSame('report_1', FilelockStore::lockNameFor('report_1'));
        $this->assertNotSame(FilelockStore::lockNameFor('a/b'), FilelockStore::lockNameFor('a_b'));
        $this->assertNotSame(FilelockStore::lockNameFor('a/b'), FilelockStore::lockNameFor('a.b'));
        $this->assertMatchesRegularExpression('/^\w+$/', FilelockStore::lockNameFor('../../etc/passwd'));
        $store = new FilelockStore(self::lockDir());
        $k1 = new Key('a/b');
        $k2 = new Key('a_b');
        $store->save($k1);
        $store->save($k2);
        $this->assertTrue($store->exists($k1) && $store->exists($k2));
        $store->delete($k1);
        $store->delete($k2);
    }

    public function testMysqlTtlIsKept(): void
    {
        $store = $this->store('mysql');
        $name = self::uniqueName('ttl');
        $key = new Key($name);
        $store->save($key);
        $store->putOffExpiration($key, 1.0);
        $this->assertLessThanOrEqual(1.0, $key->getRemainingLifetime());
        $waiter = new Key($name);
        $start = microtime(true);
        $store->waitAndSave($waiter); // the holder's TTL passes: the waiter takes over
        $this->assertLessThan(3.0, microtime(true) - $start);
        $this->assertFalse($store->exists($key));
        $this->assertTrue($store->exists($waiter));
        $store->delete($waiter);
    }

    public function testMysqlLongResourceNames(): void
    {
        $store = $this->store('mysql');
        $long = str_repeat('x', 300);
        $this->assertLessThanOrEqual(64, mb_strlen(MysqlStore::lockNameFor($long)));
        $this->assertNotSame(MysqlStore::lockNameFor($long), MysqlStore::lockNameFor($long.'y'));
        $key = new Key($long);
        $store->save($key);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
    }

    public function testMysqlOnPdoLocksLiveInItsSession(): void
    {
        $this->requireMysql();
        $pdo = self::mysqlPdo();
        $store = new MysqlStore($pdo, null, null, 1.0);
        $name = self::uniqueName('pdo');
        $key = new Key($name);
        $store->save($key);
        $this->assertSame(1, (int) $pdo->query('SELECT IS_USED_LOCK('.$pdo->quote($name).') = CONNECTION_ID()')->fetchColumn());
        // A second Key on the same session is still excluded (GET_LOCK alone would re-enter).
        try {
            $store->save(new Key($name));
            $this->fail('a second Key on the same PDO got the lock');
        } catch (LockConflictedException $e) {
        }
        // Past its TTL the holder is taken over by ending its session: its transaction fails.
        $pdo->beginTransaction();
        $other = new MysqlStore(self::mysqlDsn(), self::mysqlUser(), self::mysqlPassword());
        $waiter = new Key($name);
        $other->waitAndSave($waiter);
        $this->assertTrue($other->exists($waiter));
        $this->assertFalse($store->exists($key));
        try {
            $pdo->commit();
            $this->fail('the taken-over session could still commit');
        } catch (\PDOException $e) {
        }
        $other->delete($waiter);
    }

    public function testMysqlOnPdoBadArguments(): void
    {
        $this->requireMysql();
        foreach ([
            'credentials with a PDO' => fn () => new MysqlStore(self::mysqlPdo(), 'u', 'p'),
            'bad table' => fn () => new MysqlStore(self::mysqlPdo(), null, null, 300.0, 'x y'),
        ] as $case => $call) {
            try {
                $call();
                $this->fail("$case: no exception");
            } catch (InvalidArgumentException $e) {
                $this->assertStringNotContainsString(self::mysqlPassword(), $e->getMessage());
            }
        }
    }

    public function testBadArguments(): void
    {
        $cases = [
            'redis ttl' => [InvalidTtlException::class, fn () => new RedisStore(self::redisDsn(), 0)],
            'redis nan ttl' => [InvalidTtlException::class, fn () => new RedisStore(self::redisDsn(), NAN)],
            'redis type' => [InvalidArgumentException::class, fn () => new RedisStore(new \stdClass())],
            'redis empty dsn' => [InvalidArgumentException::class, fn () => new RedisStore('')],
            'redis array' => [InvalidArgumentException::class, fn () => new RedisStore(new \RedisArray(['127.0.0.1:1'], ['lazy_connect' => true]))],
            'mysql ttl' => [InvalidTtlException::class, fn () => new MysqlStore(self::mysqlDsn(), 'u', 'p', -1)],
            'mysql dsn' => [InvalidArgumentException::class, fn () => new MysqlStore('pgsql:host=x', 'u', 'p')],
            'mysql table' => [InvalidArgumentException::class, fn () => new MysqlStore(self::mysqlDsn(), 'u', 'p', 300.0, 'x; DROP TABLE y')],
            'file empty' => [InvalidArgumentException::class, fn () => new FilelockStore('')],
            'file nul' => [InvalidArgumentException::class, fn () => new FilelockStore("/tmp/a\0b")],
            'file not writable' => [InvalidArgumentException::class, fn () => new FilelockStore('/proc/1')],
        ];
        foreach ($cases as $name => [$class, $call]) {
            try {
                $call();
                $this->fail("$name: no exception");
            } catch (\Throwable $e) {
                $this->assertInstanceOf($class, $e, "$name: ".$e->getMessage());
            }
        }
    }

    public function testPutOffExpirationBadTtl(): void
    {
        $store = $this->store('filelock');
        $key = new Key(self::uniqueName('badttl'));
        $store->save($key);
        try {
            $this->expectException(InvalidTtlException::class);
            $store->putOffExpiration($key, -1.0);
        } finally {
            $store->delete($key);
        }
    }

    public function testMysqlPasswordNeverInMessages(): void
    {
        try {
            $store = new MysqlStore('mysql:host=127.0.0.1;port=1;dbname=x', 'u', 'Sup3rS3cret');
            $store->save(new Key('x'));
            $this->fail('no error for an unreachable server');
        } catch (\Throwable $e) {
            $this->assertStringNotContainsString('Sup3rS3cret', (string) $e);
        }
    }
}
