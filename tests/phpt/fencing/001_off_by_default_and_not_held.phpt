--TEST--
Fencing: off by default (no counter is written, getFencingToken() throws); a lock not held has no token, on every class
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/fencing.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
use ItsMieger\MySqlSharedLocks\SharedLockHandle;

var_dump(ini_get('nativelock.fencing'));
foreach ([[RedisLock::class, 'getFencingToken'], [SharedLockHandle::class, 'getFencingToken'],
          [Filelock::class, 'getFencingToken'], [Nativelock\Lock::class, 'getFencingToken']] as [$class, $method]) {
    $m = new ReflectionMethod($class, $method);
    echo "$class::$method(): ", $m->getReturnType(), ', ', $m->getNumberOfParameters(), " parameters\n";
}
function show(callable $f): void
{
    try {
        $value = $f();
        echo 'returned ', var_export($value, true), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$dir = nl_lockdir();
$name = nl_lock_name('off');
$name = str_replace('-', '_', $name);

echo "-- off\n";
RedisLock::setRedis(nl_redis_uri());
$r = RedisLock::createAndLock($name, 10);
show(fn() => $r->getFencingToken());
sl_configure();
$h = SharedLock::lock($name, 0, 10);
show(fn() => $h->getFencingToken());
Filelock::$lockpath = $dir;
$f = new Filelock($name);
$f->lock();
show(fn() => $f->getFencingToken());
$n = new Nativelock\Lock(nv_backend('redis'), "native:$name");
$n->acquire(10);
show(fn() => $n->getFencingToken());
echo 'no Redis counter: ', var_export(nl_redis()->exists("nativelock:fence:redislock:$name", "nativelock:fence:native:$name"), true), "\n";
$st = sl_pdo()->prepare('SELECT COUNT(*) FROM shared_locks_fences WHERE name = ?');
$st->execute([$name]);
echo 'no MySQL counter row: ', $st->fetchColumn(), "\n";
echo 'no counter file: ', var_export(file_exists("$dir$name.lock.fence"), true), "\n";

echo "-- not held\n";
$r->release();
show(fn() => $r->getFencingToken());
$h->release();
show(fn() => $h->getFencingToken());
show(fn() => (new SharedLockHandle('never-locked'))->getFencingToken());
$f->unlock();
show(fn() => $f->getFencingToken());
$n->release();
show(fn() => $n->getFencingToken());
show(fn() => RedisLock::create($name, 10)->getFencingToken());
show(fn() => (new Filelock($name))->getFencingToken());
?>
--EXPECTF--
string(1) "0"
RedisLock::getFencingToken(): int, 0 parameters
ItsMieger\MySqlSharedLocks\SharedLockHandle::getFencingToken(): int, 0 parameters
Filelock::getFencingToken(): int, 0 parameters
Nativelock\Lock::getFencingToken(): int, 0 parameters
-- off
RedisLockFailException: Lock "%s" was acquired without a fencing token (nativelock.fencing was off)
ItsMieger\MySqlSharedLocks\Exception\SharedLockException: Lock was acquired without a fencing token (nativelock.fencing was off)
RuntimeException: Filelock::getFencingToken(): the lock was acquired without a fencing token (nativelock.fencing was off)
Nativelock\LockException: Nativelock\Lock::getFencingToken(): the lock was acquired without a fencing token (nativelock.fencing was off)
no Redis counter: 0
no MySQL counter row: 0
no counter file: false
-- not held
RedisLockFailException: Lock "%s" is not held: no fencing token
ItsMieger\MySqlSharedLocks\Exception\SharedLockException: Lock is not held: no fencing token
ItsMieger\MySqlSharedLocks\Exception\SharedLockException: Lock is not held: no fencing token
RuntimeException: Filelock::getFencingToken(): the lock is not held
Nativelock\LockException: Nativelock\Lock::getFencingToken(): the lock is not held
RedisLockFailException: Lock "%s" is not held: no fencing token
RuntimeException: Filelock::getFencingToken(): the lock is not held
