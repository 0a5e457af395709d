--TEST--
RedisLock: key, value (base64 of 15 random bytes) and TTL on the wire are the original's
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$r = nl_redis();
$name = nl_lock_name('wire');
$lock = RedisLock::createAndLock($name, 33);
$value = $r->get('redislock:' . $name);
var_dump(strlen($value), strlen(base64_decode($value, true)), $r->ttl('redislock:' . $name));
$other = RedisLock::create($name . 'x', 33);
$p = new ReflectionProperty('RedisLock', 'value');
var_dump($p->getValue($lock) === $value, $p->getValue($other) !== $value);
$lock->release();
var_dump($r->exists('redislock:' . $name));
?>
--EXPECT--
int(20)
int(15)
int(33)
bool(true)
bool(true)
int(0)
