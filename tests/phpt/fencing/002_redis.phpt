--TEST--
Fencing, Redis: the counter "nativelock:fence:" . key() (no expiry), INCRed only by acquisitions; a waiter handed the key gets the next token; original clients leave it alone; the native API shares it; FORMAT_SYMFONY has none
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
$r = nl_redis();
$name = nl_lock_name('redis');
$counter = "nativelock:fence:redislock:$name";
RedisLock::setRedis(nl_redis_uri());
$tokens = [];
for ($i = 0; $i < 3; $i++) {
    $lock = RedisLock::createAndLock($name, 10);
    $tokens[] = $lock->getFencingToken();
    $lock->release();
}
echo 'tokens: ', implode(' ', $tokens), "\n";
echo 'counter: ', $r->get($counter), ', ttl ', $r->ttl($counter), "\n";

// A failed attempt draws nothing.
$held = RedisLock::createAndLock($name, 10);
var_dump(RedisLock::createAndLock($name, 10, RedisLock::FAIL_RETURN));
echo 'held: ', $held->getFencingToken(), ', counter: ', $r->get($counter), "\n";
// The token stays that of the acquisition, also once the TTL passed (the case fencing is for).
$r->pexpire("redislock:$name", 1);
usleep(20000);
echo 'after expiry: ', $held->getFencingToken(), ', isAcquired ', var_export($held->isAcquired(), true), "\n";
$held->release();

// An original client (SET NX + DEL) takes the lock without a token and leaves the counter alone.
$r->set("redislock:$name", 'original', ['NX', 'EX' => 10]);
$r->del("redislock:$name");
echo 'after an original client: ', $r->get($counter), "\n";

// Hand-off: a waiter that receives the key from the releaser's script draws the next token.
$holder = nl_spawn(fx_prelude() . '
    RedisLock::setRedis(nl_redis_uri());
    $l = RedisLock::createAndLock(' . var_export($name, true) . ', 30);
    echo $l->getFencingToken(), "\n";
    fgets(STDIN);
    $l->release();
    echo "released\n";
', [], $hp);
$holderToken = (int) nl_read_line($hp[1]);
$waiter = nl_spawn(fx_prelude() . '
    RedisLock::setRedis(nl_redis_uri());
    $l = RedisLock::create(' . var_export($name, true) . ', 30, RedisLock::FAIL_BLOCK);
    $l->lock(30.0);
    echo $l->getFencingToken(), "\n";
    $l->release();
', [], $wp);
// Released once the waiter is queued (its place in the queue beside the key).
for ($i = 0; $i < 1000 && !$r->zCard("nativelock:queue:redislock:$name"); $i++) usleep(5000);
fwrite($hp[0], "go\n");
echo nl_read_line($hp[1]), "\n";
$waiterToken = (int) nl_read_line($wp[1], 30);
echo 'hand-off: waiter token = holder token + 1: ', var_export($waiterToken === $holderToken + 1, true), "\n";
proc_close($holder);
proc_close($waiter);

// A subclass with its own key(): the counter follows the key.
class MyLock extends RedisLock
{
    protected function key() { return 'custom:' . $this->name; }
}
$mine = MyLock::createAndLock($name, 10);
echo 'subclass: ', $mine->getFencingToken(), ' ', $r->get("nativelock:fence:custom:$name"), "\n";
$mine->release();

// The native API on the same key shares the counter (and the lock).
$native = new Nativelock\Lock(nv_backend('redis'), "redislock:$name");
var_dump($native->acquire(10));
echo 'native: ', $native->getFencingToken() === $waiterToken + 1 ? 'next token' : 'wrong token', "\n";
var_dump($native->acquire(10));   // re-taken by its holder: the same acquisition, the same token
echo 'native again: ', $native->getFencingToken() === $waiterToken + 1 ? 'same token' : 'wrong token', "\n";
$native->release();
$native = new Nativelock\Lock(nv_backend('redis'), "redislock:$name");
$native->acquire(10, 5.0);   // the waiting path
echo 'native waiting path: ', $native->getFencingToken() === $waiterToken + 2 ? 'next token' : 'wrong token', "\n";
$native->release();

$sym = new Nativelock\Lock(new Nativelock\RedisBackend(nl_redis_uri(), Nativelock\RedisBackend::FORMAT_SYMFONY), "sym:$name");
var_dump($sym->acquire(10));
try {
    $sym->getFencingToken();
} catch (Nativelock\NotSupportedException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$sym->release();
$r->del($counter, "nativelock:fence:custom:$name", "sym:$name");
?>
--EXPECT--
tokens: 1 2 3
counter: 3, ttl -1
bool(false)
held: 4, counter: 4
after expiry: 4, isAcquired false
after an original client: 4
released
hand-off: waiter token = holder token + 1: true
subclass: 1 1
bool(true)
native: next token
bool(true)
native again: same token
native waiting path: next token
bool(true)
Nativelock\NotSupportedException: Nativelock\Lock::getFencingToken(): RedisBackend::FORMAT_SYMFONY has no fencing tokens
