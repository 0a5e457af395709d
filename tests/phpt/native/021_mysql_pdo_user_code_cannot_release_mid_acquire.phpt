--TEST--
Native API, MySQL on an application's PDO: user code running inside nativelock's statements (a PDO subclass, a signal handler) cannot release or re-take the lock being acquired (here during the fencing token's draw)
--EXTENSIONS--
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
require __DIR__ . '/pdo_hook.inc';
use Nativelock\Lock;
$pdo = nv_hook_pdo();
$key = nl_lock_name('pdo-mid');
$a = new Lock(new Nativelock\MysqlBackend($pdo), $key);
$pdo->hook = function (string $query) use ($a, $pdo) {
    if (str_contains($query, '_fences')) {
        $pdo->hook = null;
        foreach (['release' => fn () => $a->release(), 'acquire' => fn () => $a->acquire(10.0, 0.0)] as $what => $call) {
            try {
                $call();
                echo "$what inside: allowed\n";
            } catch (Nativelock\LockException $e) {
                echo "$what inside: ", $e->getMessage(), "\n";
            }
        }
    }
};
var_dump($a->acquire(10.0, 1.0), $a->isAcquired(), $a->getFencingToken() > 0);
$other = new Lock(nv_backend('mysql'), $key);
var_dump($other->acquire(10.0, 0.0), $a->release(), $other->acquire(10.0, 0.0), $other->release());
?>
--EXPECT--
release inside: Nativelock\Lock::release(): a wait or another call of this lock is in progress
acquire inside: Nativelock\Lock::acquire(): a wait or another call of this lock is in progress
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
