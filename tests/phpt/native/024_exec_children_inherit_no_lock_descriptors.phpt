--TEST--
A program exec()ed while locks are held or waited for inherits none of nativelock's descriptors (Redis connections and subscriber, MySQL session, inotify, pidfd, lock files): one that outlived us would keep a session, and the GET_LOCKs it holds, alive
--EXTENSIONS--
pcntl
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

/**
 * The descriptors of the kinds nativelock opens (sockets, anon inodes: inotify, pidfd, eventfd;
 * lock and queue files) that an exec()ed program has open. The program is PHP without any ini,
 * exec()ed straight from a forked child: no shell, and nothing that closes descriptors on the
 * way (proc_open() does); under valgrind it is not traced (--trace-children-skip=*\/php*).
 */
function inherited(string $lockdir): array
{
    $out = tempnam(sys_get_temp_dir(), 'nlfd');
    $code = '$d = opendir("/proc/self/fd"); while (($f = readdir($d)) !== false) { if ($f === (string) (int) $f && $f > 2) { echo @readlink("/proc/self/fd/$f"), "\n"; } }';
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose(STDOUT);
        $stdout = fopen($out, 'w');  // takes descriptor 1
        pcntl_exec(PHP_BINARY, ['-n', '-r', $code]);
        exit(1);
    }
    pcntl_waitpid($pid, $status);
    $listed = file_get_contents($out);
    unlink($out);
    // The program lists at least the directory it reads (open meanwhile): else it did not run.
    if (!preg_match('~^/proc/\d+/fd$~m', $listed)) {
        throw new RuntimeException("the exec()ed program listed nothing: $listed");
    }
    return array_values(array_filter(explode("\n", trim($listed)), fn($t) =>
        str_starts_with($t, 'socket:') || str_starts_with($t, 'anon_inode:')
        || str_starts_with($t, $lockdir) || str_contains($t, '/nativelock-queue')));
}

$lockdir = nl_lockdir();
$before = inherited($lockdir);
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

Filelock::$lockpath = $lockdir;
$file = new Filelock($name);
var_dump($file->lock(5.0));
// A timed-out wait (the same name, another object) sets up the release waiter.
var_dump((new Filelock($name))->lock(0.2));

$native = [];
foreach (['redis', 'file', 'mysql'] as $kind) {
    $native[$kind] = new Nativelock\Lock(nv_backend($kind), "$name-native");
    var_dump($native[$kind]->acquire(5.0));
}

var_dump(array_values(array_diff(inherited($lockdir), $before)));

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
