--TEST--
RedisLock::setRedis(): a connected phpredis \Redis (host, port, db, auth)
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
$admin = nl_redis();
$name = nl_lock_name('phpredis');
$client = new Redis();
$client->connect(nl_redis_host(), nl_redis_port(), 1.0);
$client->select(7);
RedisLock::setRedis($client);
$lock = RedisLock::createAndLock($name, 10);
var_dump(nl_redis(7)->exists('redislock:' . $name), $admin->exists('redislock:' . $name));
$lock->release();
var_dump(nl_redis(7)->exists('redislock:' . $name));
// The extension uses its own connection: the application's \Redis is untouched (still db 7).
var_dump($client->getDbNum());

$user = 'nltestp' . getmypid();
$admin->rawCommand('ACL', 'SETUSER', $user, 'on', '>pw', '~*', '&*', '+@all');
$authed = new Redis();
$authed->connect(nl_redis_host(), nl_redis_port());
$authed->auth([$user, 'pw']);
RedisLock::setRedis($authed);
$lock = RedisLock::createAndLock($name, 10);
$who = array_values(array_filter($admin->client('list'), fn($c) => $c['user'] === $user));
var_dump(count($who) >= 2);   // the application's connection and the extension's
$lock->release();
$admin->rawCommand('ACL', 'DELUSER', $user);
?>
--EXPECT--
int(1)
int(0)
int(0)
int(7)
bool(true)
