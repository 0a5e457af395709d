<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests\Conformance;

use Nativelock\Bridge\Symfony\MysqlStore;
use Symfony\Component\Lock\PersistingStoreInterface;

require_once __DIR__.'/MysqlStoreConformanceTest.php';

/** The same suite on our MysqlStore given the application's \PDO (the locks live in its session). */
final class MysqlPdoStoreConformanceTest extends MysqlStoreConformanceTest
{
    protected function getStore(): PersistingStoreInterface
    {
        return new MysqlStore(new \PDO(...self::connection()));
    }
}
