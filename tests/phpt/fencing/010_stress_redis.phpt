--TEST--
Fencing, Redis (RedisLock and Nativelock\RedisBackend on the same key): 8 processes x 1000 acquisitions and 3 holders SIGKILLed while holding; tokens strictly increase in holding order, none repeats
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.fencing=1
--FILE--
<?php
require __DIR__ . '/fencing.inc';
fx_stress('redis', 8, 1000, 3);
?>
--EXPECT--
workers done: 8 of 8
holders killed: 3 of 3
acquisitions recorded: 8003 of 8003
holding orders 0..N-1 once each: true
tokens unique: true
tokens strictly increasing in holding order: true
first token >= 1: true
