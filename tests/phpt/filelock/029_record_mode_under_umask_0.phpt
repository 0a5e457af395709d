--TEST--
Filelock: under umask 0 the lock file (the owner record) is not writable by group or others
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
umask(0);
$lock = new Filelock('mode');
var_dump($lock->try_lock());
printf("%o\n", fileperms($dir . 'mode.lock') & 0777);
$lock->unlock();
?>
--EXPECT--
int(1)
644
