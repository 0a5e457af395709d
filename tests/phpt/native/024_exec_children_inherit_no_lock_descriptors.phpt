--TEST--
A program exec()ed while locks are held or waited for inherits none of nativelock's descriptors (Redis connections and subscriber, MySQL session, inotify, pidfd, lock files): one that outlived us would keep a session, and the GET_LOCKs it holds, alive
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
igbinary
redis
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
require __DIR__ . '/../sharedlock/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;

/** What an exec()ed program has open besides its standard streams: sockets, anon inodes, files. */
function inherited(): array
{
    $out = [];
    foreach (explode("\n", trim((string) shell_exec('ls -l /proc/self/fd/ 2>/dev/null'))) as $line) {
        if (preg_match('~ (\d+) -> (.*)$~', $line, $m) && (int) $m[1] > 2) {
            $out[] = $m[2];
        }
    }
    return $out;
}

$before = inherited();
$name = nl_lock_name('exec');

RedisLock::setRedis(nl_redis_uri());
$redis = RedisLock::createAndLock($name, 30);
// A blocked wait opens the pooled subscriber connection.
try {
    RedisLock::create($name, 30, RedisLock::FAIL_BLOCK)->lock(0.2);
} catch (RedisLockFailException $e) {
}

sl_configure();
$shared = SharedLock::lock($name, 5, 30);

Filelock::$lockpath = $dir = nl_lockdir();
$file = new Filelock($name);
var_dump($file->lock(5.0));
// A timed-out wait (the same name, another object) sets up the release waiter.
var_dump((new Filelock($name))->lock(0.2));

$native = [];
foreach (['redis', 'file', 'mysql'] as $kind) {
    $native[$kind] = new Nativelock\Lock(nv_backend($kind), "$name-native");
    var_dump($native[$kind]->acquire(5.0));
}

$new = array_values(array_diff(inherited(), $before));
var_dump(array_values(array_filter($new, fn($t) => !str_ends_with($t, '/proc/self/fd') && !preg_match('~/proc/\d+/fd$~', $t))));

foreach ($native as $l) {
    $l->release();
}
$file->unlock();
$shared->release();
$redis->release();
?>
--EXPECT--
int(1)
int(-1)
bool(true)
bool(true)
bool(true)
array(0) {
}
