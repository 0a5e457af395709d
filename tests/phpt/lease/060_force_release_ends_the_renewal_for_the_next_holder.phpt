--TEST--
Auto-renewal, native API, MySQL: after forceRelease() of an auto-renewed lock, another Lock of the process that takes the name keeps its own TTL (the first one's renewal does not extend it), and the first one reads lost
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../native/native.inc';
use Nativelock\Lock;
$backend = nv_backend('mysql');
$key = nl_lock_name('force-renew');
$a = (new Lock($backend, $key))->setAutoRenew(true);
var_dump($a->acquire(3.0), $backend->forceRelease($key));
$b = (new Lock($backend, $key))->setAutoRenew(false);
var_dump($b->acquire(1.0, 0.0));
// Past B's 1 s TTL and three of A's renewal periods (1 s each).
sleep(4);
[$code, $out] = nl_run(nv_backend_code($backend) . '$l = new Nativelock\Lock($backend, ' . var_export($key, true) . '); var_dump($l->acquire(10.0, 0.0)); $l->release();');
echo "another process after B's TTL: ", trim($out), "\n";
var_dump($a->isAcquired(), $a->release(), $b->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
another process after B's TTL: bool(true)
bool(false)
bool(false)
bool(false)
