<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests\Conformance;

use Nativelock\Bridge\Symfony\FilelockStore;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase;
use Symfony\Component\Lock\Tests\Store\BlockingStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\UnserializableTestTrait;

/**
 * Symfony 5.4's store conformance suite on our FilelockStore. Not ExpiringStoreTestTrait (file
 * locks have no TTL, like FlockStore) nor SharedLockStoreTestTrait (no shared locks on files).
 */
final class FilelockStoreConformanceTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use UnserializableTestTrait;

    protected function getStore(): PersistingStoreInterface
    {
        return new FilelockStore(sys_get_temp_dir().'/nativelock-conformance');
    }
}
