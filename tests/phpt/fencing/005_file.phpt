--TEST--
Fencing, files: the counter "<lock file>.fence" written while holding, shared by Filelock and Nativelock\FileBackend; a corrupt counter is never reset: the lock is not taken (-2 with a warning, LockException) and stays free; a forked child has no token
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
pcntl
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.fencing=1
--FILE--
<?php
require __DIR__ . '/fencing.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$f = new Filelock('a b');   // the lock file a_b.lock, the counter a_b.lock.fence
$t = [];
var_dump($f->try_lock());
$t[] = $f->getFencingToken();
$f->unlock();
var_dump($f->lock(1.0));
$t[] = $f->getFencingToken();
echo 'tokens: ', implode(' ', $t), ', counter file: ', json_encode(file_get_contents("{$dir}a_b.lock.fence")), "\n";
$f->unlock();

$n = new Nativelock\Lock(new Nativelock\FileBackend($dir), 'a_b');
$n->acquire();
echo 'native API on the same lock file: ', $n->getFencingToken(), "\n";
$n->release();

// A forked child does not hold its parent's lock: no token there.
$f->lock();
$pid = pcntl_fork();
if ($pid === 0) {
    try {
        $f->getFencingToken();
    } catch (RuntimeException $e) {
        echo 'child: ', $e->getMessage(), "\n";
    }
    exit(0);
}
pcntl_waitpid($pid, $status);
echo 'parent: ', $f->getFencingToken(), "\n";
$f->unlock();

echo 'directory: ', implode(' ', array_diff(scandir($dir), ['.', '..'])), "\n";

// A corrupt counter is refused, not reset: no lock without its token.
file_put_contents("{$dir}a_b.lock.fence", "garbage\n");
var_dump($f->try_lock());
var_dump($f->lock(1.0));
var_dump($f->is_locked());
try {
    $n->acquire();
} catch (Nativelock\LockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($n->isAcquired(), file_exists("{$dir}a_b.lock"));
file_put_contents("{$dir}a_b.lock.fence", "41\n");
var_dump($f->try_lock());
echo 'after repair: ', $f->getFencingToken(), "\n";
$f->unlock();
?>
--EXPECTF--
int(1)
int(1)
tokens: 1 2, counter file: "2\n"
native API on the same lock file: 3
child: Filelock::getFencingToken(): the lock is not held
parent: 4
directory: a_b.lock.fence

Warning: Filelock::try_lock(): Fencing token not drawn, lock given back: fencing counter %sa_b.lock.fence is corrupt in %s on line %d
int(-2)

Warning: Filelock::lock(): Fencing token not drawn, lock given back: fencing counter %sa_b.lock.fence is corrupt in %s on line %d
int(-2)
bool(false)
Nativelock\LockException: Nativelock\Lock::acquire(): fencing counter %sa_b.lock.fence is corrupt
bool(false)
bool(false)
int(1)
after repair: 42
