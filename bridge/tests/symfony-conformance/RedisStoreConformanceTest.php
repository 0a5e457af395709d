<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests\Conformance;

use Nativelock\Bridge\Symfony\RedisStore;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase;
use Symfony\Component\Lock\Tests\Store\BlockingStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\ExpiringStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\SharedLockStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\UnserializableTestTrait;

/** Symfony 5.4's store conformance suite (fetched at run time, not committed) on our RedisStore. */
final class RedisStoreConformanceTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;
    use SharedLockStoreTestTrait;
    use UnserializableTestTrait;

    protected function getClockDelay()
    {
        return 250000; // as Symfony's AbstractRedisStoreTestCase
    }

    protected function getStore(): PersistingStoreInterface
    {
        $redis = new \Redis();
        $redis->connect(getenv('NATIVELOCK_REDIS_HOST') ?: '127.0.0.1', (int) (getenv('NATIVELOCK_REDIS_PORT') ?: 16379));

        return new RedisStore($redis);
    }
}
