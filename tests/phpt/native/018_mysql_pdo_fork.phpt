--TEST--
Native API, MySQL on an application's PDO: a forked child neither releases its parent's lock nor speaks on the parent's session (its exit included); it cannot lock through the parent's PDO, and can through its own
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
pcntl
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
$pdo = nv_pdo();
$connection = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
$backend = new Nativelock\MysqlBackend($pdo);
$key = nl_lock_name('pdo-fork');
$lock = new Lock($backend, $key);
var_dump($lock->acquire(60.0));
$out = sys_get_temp_dir() . "/nvpdofork-$key";
$pid = pcntl_fork();
if ($pid === 0) {
    $r = [$lock->isAcquired(), $lock->isHeld(), $lock->release()];
    $mine = new Lock($backend, $key . '-2');
    try {
        $mine->acquire(5.0, 0.0);
        $r[] = 'acquired through the parent\'s PDO';
    } catch (Nativelock\LockException $e) {
        $r[] = $e->getMessage();
    }
    try {
        $backend->forceRelease($key);
        $r[] = 'forceRelease ran';
    } catch (Nativelock\LockException $e) {
        $r[] = 'forceRelease refused';
    }
    $own = new Lock(new Nativelock\MysqlBackend(nv_pdo()), $key);
    $r[] = $own->acquire(5.0, 0.0);
    file_put_contents($out, json_encode($r));
    // The child's end destroys its copy of the parent's PDO (and of the backend on it).
    exit(0);
}
pcntl_waitpid($pid, $status);
echo file_get_contents($out), "\n";
unlink($out);
echo "parent's session alive: ", var_export($pdo->query('SELECT CONNECTION_ID()')->fetchColumn() === $connection, true), "\n";
var_dump($lock->isHeld(), $lock->release());
?>
--EXPECT--
bool(true)
[false,false,false,"Nativelock\\Lock::acquire(): this MysqlBackend's PDO belongs to the parent process (it shares the parent's connection): in a forked child, give a MysqlBackend a PDO the child opened","forceRelease refused",false]
parent's session alive: true
bool(true)
bool(true)
