--TEST--
Filelock: PHP's stat cache follows the lock file: is_file() right after try_lock()/lock() and unlock()
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
$file = $dir . 'statcache.lock';
$lock = new Filelock('statcache');
var_dump(is_file($file));
var_dump($lock->try_lock(), is_file($file));
$lock->unlock();
var_dump(is_file($file));
var_dump($lock->lock(), is_file($file));
$lock->unlock(true);
var_dump(is_file($file));
?>
--EXPECT--
bool(false)
int(1)
bool(true)
bool(false)
int(1)
bool(true)
bool(false)
