--TEST--
Filelock: the seed's own example runs unchanged
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = nl_lockdir();
// From the original article, verbatim but for die() becoming echo so the test can go on.
$lock = new Filelock( "myfirstlock" ); if ($lock->is_locked()) echo( "Process locked!\n" ); if ($lock->try_lock()) echo( "First time lock call succeeded, we have exclusive access!\n" ); $lock->unlock();
var_dump($lock->lock()); // will wait infinitely to obtain the lock ... (it is free)
$lock->unlock(); // release!
var_dump($lock->is_locked(), $lock->unlock());
?>
--EXPECT--
First time lock call succeeded, we have exclusive access!
int(1)
bool(false)
NULL
