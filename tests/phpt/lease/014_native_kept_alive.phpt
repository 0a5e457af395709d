--TEST--
Auto-renewal, native API: Redis and MySQL locks of 2 s held for 5 s (CPU loop, sleep()) are never free meanwhile
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
ls_kept_alive('native-redis', 'cpu', 2, 5);
ls_kept_alive('native-mysql', 'sleep', 2, 5);
?>
--EXPECT--
native-redis, holder cpu for 5 s with a 2 s TTL: contender got it 0 times in enough tries
holder: lost: false; released
free right after the release: true
native-mysql, holder sleep for 5 s with a 2 s TTL: contender got it 0 times in enough tries
holder: lost: false; released
free right after the release: true
