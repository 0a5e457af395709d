<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests\Conformance;

use Nativelock\Bridge\Symfony\MysqlStore;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase;
use Symfony\Component\Lock\Tests\Store\BlockingStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\ExpiringStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\UnserializableTestTrait;

/**
 * Symfony 5.4's store conformance suite on our MysqlStore. Not SharedLockStoreTestTrait (no
 * shared locks on MySQL). TTLs are whole seconds on the server, so the clock delay is 1.5 s
 * (Symfony's PdoStoreTest uses 1 s for the same reason).
 */
class MysqlStoreConformanceTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;
    use UnserializableTestTrait;

    protected function getClockDelay()
    {
        return 1500000;
    }

    protected function getStore(): PersistingStoreInterface
    {
        return new MysqlStore(...self::connection());
    }

    /** @return array{string, string, string} the test server's DSN, user and password */
    protected static function connection(): array
    {
        $dsn = sprintf('mysql:host=%s;port=%d;dbname=%s', getenv('NATIVELOCK_MYSQL_HOST') ?: '127.0.0.1', (int) (getenv('NATIVELOCK_MYSQL_PORT') ?: 13306), getenv('NATIVELOCK_MYSQL_DATABASE') ?: 'nativelock_test');

        return [$dsn, getenv('NATIVELOCK_MYSQL_USER') ?: 'nativelock', getenv('NATIVELOCK_MYSQL_PASSWORD') ?: 'nativelock'];
    }
}
