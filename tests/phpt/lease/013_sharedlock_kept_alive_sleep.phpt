--TEST--
Auto-renewal, SharedLock (native driver): a 2 s lock held for 8 s by a process in sleep() is never taken over, and free right after release
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
posix
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lease.inc';
ls_kept_alive('mysql', 'sleep');
?>
--EXPECT--
mysql, holder sleep for 8 s with a 2 s TTL: contender got it 0 times in enough tries
holder: lost: false; released
free right after the release: true
