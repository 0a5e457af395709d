--TEST--
RedisLock::setRedis(): a Credis_Client (host, port, db, password, username, timeouts read natively)
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
require __DIR__ . '/../../lib/credis_client.inc';
$admin = nl_redis();
$user = 'nltest' . getmypid();
$admin->rawCommand('ACL', 'SETUSER', $user, 'on', '>s3cret', '~*', '&*', '+@all');
$name = nl_lock_name('credis');

// Host, port and database.
RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port(), null, '', 5));
$lock = RedisLock::createAndLock($name, 10);
var_dump(nl_redis(5)->exists('redislock:' . $name), $admin->exists('redislock:' . $name));
$lock->release();
// The getters were not needed: the protected properties are read natively.
var_dump(Credis_Client::$getterCalls);

// Username + password (ACL user); a wrong password is a connection error naming host:port.
RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port(), 1.5, 'pid', 0, 's3cret', $user));
$lock = RedisLock::createAndLock($name, 10);
var_dump($admin->exists('redislock:' . $name));
$lock->release();
RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port(), 1.5, '', 0, 'wrong', $user));
try {
    RedisLock::createAndLock($name, 10);
} catch (RedisLockConnectionException $e) {
    echo get_class($e), ': ', str_replace(nl_redis_host() . ':' . nl_redis_port(), 'HOST:PORT', $e->getMessage()), "\n";
}
// tcp:// in the host, like Credis accepts.
RedisLock::setRedis(new Credis_Client('tcp://' . nl_redis_host() . ':' . nl_redis_port(), null));
$lock = RedisLock::createAndLock($name, 10);
var_dump($admin->exists('redislock:' . $name));
$lock->release();
$admin->rawCommand('ACL', 'DELUSER', $user);
?>
--EXPECTF--
int(1)
int(0)
int(0)
int(1)
RedisLockConnectionException: Redis at HOST:PORT refused AUTH: WRONGPASS%s
int(1)
