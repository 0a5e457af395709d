--TEST--
Native API, MySQL: a holder whose session the server killed is told the lock is lost (isHeld, refresh, release false), and the next acquire reconnects
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
require __DIR__ . '/../sharedlock/sharedlock.inc';
use Nativelock\Lock;
$backend = nv_backend('mysql');
$key = nl_lock_name('kill');
$lock = new Lock($backend, $key);
var_dump($lock->acquire(30.0));
$pdo = sl_pdo();
$conn = $pdo->query("SELECT connection_id FROM shared_locks WHERE name = " . $pdo->quote($key))->fetchColumn();
$pdo->exec("KILL $conn");
usleep(100000);
var_dump($lock->isHeld(), $lock->refresh(30.0), $lock->isAcquired(), $lock->release());
$other = new Lock($backend, $key);
var_dump($other->acquire(30.0, 5.0), $other->release(), $lock->acquire(30.0), $lock->release());
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
