--TEST--
RedisLock: every lock uses what RedisLock::$redis holds at that moment (a subclass's setRedis() that only assigns it, as the gist's does), and an emptied property throws as in the original
--DESCRIPTION--
Until 2026-12-08 the property was read once per request: a later assignment (another database,
another server, null) was silently ignored, so a process that had used database 0 first kept
taking database 3's locks in database 0, beside a process that held them in database 3.
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
class TenantLock extends RedisLock
{
    public static function setRedis($redis) { static::$redis = $redis; }
}
$name = nl_lock_name('assigned');
$db0 = nl_redis(0);
$db3 = nl_redis(3);
$where = function () use ($name, $db0, $db3): string {
    return 'db0 ' . $db0->exists("redislock:$name") . ', db3 ' . $db3->exists("redislock:$name");
};
TenantLock::setRedis(nl_redis_uri(0));
TenantLock::createAndLock('warm-up-' . $name, 5)->release();
TenantLock::setRedis(nl_redis_uri(3));
$l = TenantLock::createAndLock($name, 5);
echo "after switching to db 3: ", $where(), "\n";
// Another process that only ever used database 3 finds it taken.
$other = nl_redis(3);
echo "db 3's SET NX from elsewhere: ", var_export($other->set("redislock:$name", 'x', ['NX', 'EX' => 5]), true), "\n";
$l->release();
echo "released: ", $where(), "\n";
// A client object assigned after a URI, and the same object again: no reparse needed.
require __DIR__ . '/../../lib/predis_client.inc';
$client = new Predis\Client(['host' => nl_redis_host(), 'port' => nl_redis_port(), 'database' => 0]);
TenantLock::setRedis($client);
$l = TenantLock::createAndLock($name, 5);
echo "a client object for db 0: ", $where(), "\n";
$l->release();
TenantLock::setRedis(new Predis\Client(['host' => nl_redis_host(), 'port' => nl_redis_port(), 'database' => 3]));
$l = TenantLock::createAndLock($name, 5);
echo "another for db 3: ", $where(), "\n";
$l->release();
// Pointing at a port where nothing listens fails rather than using the old server.
TenantLock::setRedis('redis://127.0.0.1:1');
try {
    TenantLock::createAndLock($name, 5, RedisLock::FAIL_RETURN);
    echo "locked on the old server\n";
} catch (RedisLockConnectionException $e) {
    echo "port 1: RedisLockConnectionException\n";
}
TenantLock::setRedis(null);
try {
    TenantLock::createAndLock($name, 5);
    echo "locked without a server\n";
} catch (Exception $e) {
    echo "null: ", $e->getMessage(), "\n";
}
// A client whose getter (user code, run while it is read) empties the property: the object
// being read stays alive until it has been read, and the emptied property then throws.
class EmptyingRedis extends Redis
{
    public function getHost(): string|false
    {
        TenantLock::setRedis(null);
        return parent::getHost();
    }
}
$client = new EmptyingRedis();
$client->connect(nl_redis_host(), nl_redis_port());
TenantLock::setRedis($client);
unset($client);
$l = TenantLock::createAndLock($name, 5);
echo "locked through what the property held when asked: ", $where(), "\n";
try {
    $l->release();
} catch (Exception $e) {
    echo "release() with the property empty, as the original's: ", $e->getMessage(), "\n";
}
TenantLock::setRedis(nl_redis_uri(3));
$l->release();
echo "released where it was taken, once set again: ", $where(), "\n";
// The native setRedis() still works after all that.
RedisLock::setRedis(nl_redis_uri(0));
RedisLock::createAndLock($name, 5)->release();
echo "ok\n";
?>
--EXPECT--
after switching to db 3: db0 0, db3 1
db 3's SET NX from elsewhere: false
released: db0 0, db3 0
a client object for db 0: db0 1, db3 0
another for db 3: db0 0, db3 1
port 1: RedisLockConnectionException
null: You must call setRedis() before using redis locks
locked through what the property held when asked: db0 1, db3 0
release() with the property empty, as the original's: You must call setRedis() before using redis locks
released where it was taken, once set again: db0 0, db3 0
ok
