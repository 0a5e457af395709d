<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests;

use Nativelock\Bridge\Symfony\RedisStore;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore as StockRedisStore;

/** Wire compatibility with Symfony's own RedisStore (phpredis client), both ways. */
final class SymfonyRedisStoreTest extends BridgeTestCase
{
    private function ours(bool $releaseAtRequestEnd = true): RedisStore
    {
        $this->requireRedis();

        return new RedisStore(self::phpredis(), 300.0, $releaseAtRequestEnd);
    }

    private function stock(): StockRedisStore
    {
        $this->requireRedis();

        return new StockRedisStore(self::phpredis());
    }

    private function assertConflict(callable $call, string $message): void
    {
        try {
            $call();
            $this->fail($message);
        } catch (LockConflictedException $e) {
            $this->addToAssertionCount(1);
        }
    }

    public function testWireLayout(): void
    {
        $ours = $this->ours();
        $name = self::uniqueName('layout');
        $key = new Key($name);
        $ours->save($key);
        $redis = self::phpredis();
        $this->assertSame(\Redis::REDIS_ZSET, $redis->type($name));
        $members = $redis->zRange($name, 0, -1);
        sort($members);
        $this->assertContains('__write__', $members);
        $this->assertContains($key->getState(RedisStore::class), $members);
        $this->assertCount(2, $members);
        $pttl = $redis->pttl($name);
        $this->assertGreaterThan(295000, $pttl);
        $this->assertLessThanOrEqual(300000, $pttl);
        $ours->delete($key);
        $this->assertSame(0, $redis->exists($name));
    }

    public function testStockWriterExcludesOurs(): void
    {
        [$ours, $stock] = [$this->ours(), $this->stock()];
        $name = self::uniqueName('stockw');
        $stockKey = new Key($name);
        $stock->save($stockKey);
        $this->assertConflict(fn () => $ours->save(new Key($name)), 'ours took a stock write lock');
        $this->assertConflict(fn () => $ours->saveRead(new Key($name)), 'ours read past a stock write lock');
        $stock->delete($stockKey);
        $key = new Key($name);
        $ours->save($key);
        $this->assertTrue($ours->exists($key));
    }

    public function testOurWriterExcludesStock(): void
    {
        [$ours, $stock] = [$this->ours(), $this->stock()];
        $name = self::uniqueName('oursw');
        $key = new Key($name);
        $ours->save($key);
        $this->assertConflict(fn () => $stock->save(new Key($name)), 'stock took our write lock');
        $this->assertConflict(fn () => $stock->saveRead(new Key($name)), 'stock read past our write lock');
        $ours->delete($key);
        $stockKey = new Key($name);
        $stock->save($stockKey);
        $this->assertTrue($stock->exists($stockKey));
        $stock->delete($stockKey);
    }

    public function testSharedLocksMix(): void
    {
        [$ours, $stock] = [$this->ours(), $this->stock()];
        $name = self::uniqueName('shared');
        $stockReader = new Key($name);
        $ourReader = new Key($name);
        $stock->saveRead($stockReader);
        $ours->saveRead($ourReader);
        $this->assertTrue($stock->exists($stockReader));
        $this->assertTrue($ours->exists($ourReader));
        $this->assertConflict(fn () => $ours->save(new Key($name)), 'ours wrote past readers');
        $this->assertConflict(fn () => $ours->save($ourReader), 'promotion with another reader');
        $this->assertConflict(fn () => $stock->save(new Key($name)), 'stock wrote past our reader');
        $stock->delete($stockReader);
        $ours->save($ourReader); // promotion, now the only reader
        $this->assertConflict(fn () => $stock->saveRead(new Key($name)), 'stock read past our promoted writer');
        $ours->saveRead($ourReader); // demotion
        $other = new Key($name);
        $stock->saveRead($other);
        $this->assertTrue($stock->exists($other));
        $stock->delete($other);
        $ours->delete($ourReader);
        $this->assertSame(0, self::phpredis()->exists($name));
    }

    public function testWaitAndSaveWakesOnStockRelease(): void
    {
        $ours = $this->ours();
        $name = self::uniqueName('wakestock');
        $child = $this->startChild(<<<'PHP'
            $redis = new Redis(); $redis->connect($argv[1], (int) $argv[2]);
            $store = new Symfony\Component\Lock\Store\RedisStore($redis);
            $key = new Symfony\Component\Lock\Key($argv[3]);
            $store->save($key);
            echo "held\n";
            usleep(300000);
            $store->delete($key);
            echo microtime(true), "\n";
            PHP, [self::redisHost(), self::redisPort(), $name]);
        $this->assertSame('held', $this->readLine($child));
        $key = new Key($name);
        $ours->waitAndSave($key);
        $got = microtime(true);
        $released = (float) $this->readLine($child);
        $this->assertLessThan(0.5, $got - $released, 'the fallback poll notices a stock release');
        $this->assertTrue($ours->exists($key));
        $ours->delete($key);
    }

    public function testWaitAndSaveReadWaitsForWriter(): void
    {
        $ours = $this->ours();
        $name = self::uniqueName('waitread');
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Symfony\RedisStore($argv[1]);
            $key = new Symfony\Component\Lock\Key($argv[2]);
            $store->save($key);
            echo "held\n";
            fgets(STDIN);
            $store->delete($key);
            echo microtime(true), "\n";
            fgets(STDIN);
            PHP, [self::redisDsn(), $name]);
        $this->assertSame('held', $this->readLine($child));
        $this->tell($child, 'go');
        $key = new Key($name);
        $ours->waitAndSaveRead($key);
        $got = microtime(true);
        $released = (float) $this->readLine($child);
        $this->assertLessThan(0.05, $got - $released);
        $this->assertTrue($ours->exists($key));
        $ours->delete($key);
        $this->tell($child, 'bye');
    }

    public function testLockFactoryReadLock(): void
    {
        $factory = new LockFactory($this->ours());
        $name = self::uniqueName('factoryread');
        $a = $factory->createLock($name);
        $b = $factory->createLock($name);
        $this->assertTrue($a->acquireRead());
        $this->assertTrue($b->acquireRead());
        $this->assertFalse($factory->createLock($name)->acquire());
        $a->release();
        $b->release();
        $this->assertTrue($factory->createLock($name)->acquire());
    }

    public function testSerializableKeysWhenLocksOutliveTheRequest(): void
    {
        $ours = $this->ours(false);
        $name = self::uniqueName('ser');
        $key = new Key($name);
        $ours->save($key);
        $copy = unserialize(serialize($key));
        $child = $this->startChild(<<<'PHP'
            $store = new Nativelock\Bridge\Symfony\RedisStore($argv[1], 300.0, false);
            $key = unserialize(base64_decode($argv[2]));
            echo $store->exists($key) ? "exists\n" : "missing\n";
            $store->delete($key);
            echo $store->exists($key) ? "exists\n" : "gone\n";
            PHP, [self::redisDsn(), base64_encode(serialize($copy))]);
        $this->assertSame('exists', $this->readLine($child));
        $this->assertSame('gone', $this->readLine($child));
        $this->assertFalse($ours->exists($key));
    }

    public function testSerializedKeyMovesBetweenStockAndBridge(): void
    {
        [$ours, $stock] = [$this->ours(false), $this->stock()];
        $key = new Key(self::uniqueName('rolling'));
        $stock->save($key);
        $moved = unserialize(serialize($key));
        $this->assertTrue($ours->exists($moved), 'the bridge knows a key the stock store locked');
        $ours->putOffExpiration($moved, 60.0);
        $ours->delete($moved);
        $this->assertFalse($stock->exists($key));

        $key = new Key(self::uniqueName('rolling'));
        $ours->save($key);
        $moved = unserialize(serialize($key));
        $this->assertTrue($stock->exists($moved), 'the stock store knows a key the bridge locked');
        $stock->delete($moved);
        $this->assertFalse($ours->exists($key));
    }

    public function testPredisClient(): void
    {
        $this->requireRedis();
        if (!class_exists(\Predis\Client::class)) {
            $this->markTestSkipped('predis is not installed');
        }
        $store = new RedisStore(new \Predis\Client(['host' => self::redisHost(), 'port' => self::redisPort()]));
        $key = new Key(self::uniqueName('predis'));
        $store->save($key);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
        $this->expectException(InvalidArgumentException::class);
        new RedisStore(new \Predis\Client([['host' => self::redisHost(), 'port' => self::redisPort()], ['host' => self::redisHost(), 'port' => self::redisPort()]], ['cluster' => 'predis']));
    }

    /** @dataProvider prefixedClients */
    public function testClientKeyPrefixIsTheStockStores(callable $client): void
    {
        $this->requireRedis();
        [$ours, $stock] = [new RedisStore($client()), new StockRedisStore($client())];
        $name = self::uniqueName('prefix');
        $stockKey = new Key($name);
        $stock->save($stockKey);
        $this->assertSame(['app:'.$name], self::phpredis()->keys('*'.$name));
        $this->assertConflict(fn () => $ours->save(new Key($name)), 'ours took a lock the stock store holds');
        $stock->delete($stockKey);
        $key = new Key($name);
        $ours->save($key);
        $this->assertSame(['app:'.$name], self::phpredis()->keys('*'.$name));
        $this->assertConflict(fn () => $stock->save(new Key($name)), 'the stock store took a lock ours holds');
        $ours->delete($key);
        $this->assertSame([], self::phpredis()->keys('*'.$name));
    }

    public function testConnectionErrorIsLockStorageExceptionWithoutPassword(): void
    {
        try {
            $store = new RedisStore('redis://user:Sup3rS3cret@127.0.0.1:1');
            $store->save(new Key('x'));
            $this->fail('no error for an unreachable server');
        } catch (\Throwable $e) {
            $this->assertInstanceOf(\Symfony\Component\Lock\Exception\ExceptionInterface::class, $e);
            $this->assertStringNotContainsString('Sup3rS3cret', (string) $e);
        }
    }
}
