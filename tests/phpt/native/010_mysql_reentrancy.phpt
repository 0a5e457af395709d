--TEST--
Native API, MySQL: two Lock objects of one process exclude each other (GET_LOCK is re-entrant per session); refresh and remaining lifetime
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
$backend = nv_backend('mysql');
$key = nl_lock_name('m');
$a = new Lock($backend, $key);
$b = new Lock($backend, $key);
var_dump($a->acquire(10.0), $b->acquire(10.0), $b->acquire(10.0, 0.3), $b->isHeld());
var_dump($a->getRemainingLifetime() <= 10.0, $a->refresh(100.0), $a->getRemainingLifetime() > 90);
var_dump($a->acquire(50.0), $a->getRemainingLifetime() <= 50.0, $a->release(), $a->release(), $b->acquire(10.0), $b->release());
try { $a->acquire(1.0, 0.0, true); } catch (Nativelock\NotSupportedException $e) { echo "shared: NotSupportedException\n"; }
try { new Lock($backend, str_repeat('é', 65)); $l = new Lock($backend, str_repeat('é', 65)); $l->acquire(1.0); } catch (Throwable $e) { echo get_class($e), "\n"; }
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
shared: NotSupportedException
ValueError
