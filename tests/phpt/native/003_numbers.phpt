--TEST--
Native API: TTL and timeout extremes (0, negative, NaN, INF, 1e9, PHP_INT_MAX, 2^63) are a ValueError or "no limit", never a wrap
--EXTENSIONS--
igbinary
redis
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
$r = nl_redis();
foreach (['redis', 'file', 'mysql'] as $kind) {
    $backend = nv_backend($kind);
    $key = nl_lock_name('num');
    $lock = new Lock($backend, $key);
    echo "$kind:";
    foreach ([0.0, -1.0, NAN, INF, 1e9, (float) PHP_INT_MAX, 2.0 ** 63, 0.001] as $ttl) {
        try {
            $ok = $lock->acquire($ttl);
            $left = $lock->getRemainingLifetime();
            echo ' ', $ok ? ($left === null ? 'never' : ($left > 0 && $left <= 1 ? 'short' : $left)) : 'no';
            $lock->release();
        } catch (ValueError $e) {
            echo ' VE';
        }
    }
    echo " |";
    foreach ([-1.0, NAN, -INF] as $timeout) {
        try { $lock->acquire(1.0, $timeout); echo ' ok'; } catch (ValueError $e) { echo ' VE'; }
    }
    // A waiter with an unbounded or huge timeout on a free lock returns at once.
    foreach ([INF, 1e9, (float) PHP_INT_MAX, 2.0 ** 63, null] as $timeout) {
        echo ' ', var_export($lock->acquire(1.0, $timeout), true);
        $lock->release();
    }
    try { $lock->refresh(-5.0); } catch (ValueError $e) { echo ' refresh:VE'; }
    try { $lock->refresh(NAN); } catch (ValueError $e) { echo ' VE'; }
    echo "\n";
}
?>
--EXPECT--
redis: VE VE VE never never never never short | VE VE VE true true true true true refresh:VE VE
file: VE VE VE never never never never never | VE VE VE true true true true true refresh:VE VE
mysql: VE VE VE never never never never short | VE VE VE true true true true true refresh:VE VE
