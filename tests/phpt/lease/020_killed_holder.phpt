--TEST--
Auto-renewal: a SIGKILLed holder stops renewing, so its lock is free within one TTL (RedisLock, SharedLock, native API)
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
foreach (['redis', 'mysql', 'native-redis', 'native-mysql'] as $kind) ls_killed($kind);
?>
--EXPECT--
redis, holder killed: free within one TTL: true
mysql, holder killed: free within one TTL: true
native-redis, holder killed: free within one TTL: true
native-mysql, holder killed: free within one TTL: true
