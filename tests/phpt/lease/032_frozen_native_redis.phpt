--TEST--
Auto-renewal, native API, Redis: a holder SIGSTOPped for 5 s loses its 2 s lock to another at the TTL; resumed, its lock reports lost, its release says so, and its fencing token is smaller than the new holder's
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
--INI--
nativelock.fencing=1
--FILE--
<?php
require __DIR__ . '/lease.inc';
ls_frozen('native-redis');
?>
--EXPECT--
native-redis, holder frozen: taken by another at about the TTL: true
new token greater: true
resumed holder: lost: true; release() returned false
new holder releases: released
