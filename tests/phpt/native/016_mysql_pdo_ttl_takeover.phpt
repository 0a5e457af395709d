--TEST--
Native API, MySQL on an application's PDO: the TTL is kept; a holder past it is taken over by ending its session, so its transaction cannot commit and its Lock says lost (false, not an error)
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
$pdo = nv_pdo();
$pdo->exec('CREATE TABLE IF NOT EXISTS nv_pdo_takeover (id INT PRIMARY KEY, v INT) ENGINE=InnoDB');
$key = nl_lock_name('pdo-ttl');
$holder = new Lock(new Nativelock\MysqlBackend($pdo), $key);
var_dump($holder->acquire(1.0));
$pdo->beginTransaction();
$pdo->exec('REPLACE INTO nv_pdo_takeover VALUES (1, 1)');
// The contender waits server-side until the holder's TTL has passed, then takes the lock over.
$contender = new Lock(nv_backend('mysql'), $key);
$t = microtime(true);
var_dump($contender->acquire(30.0, 10.0));
$waited = microtime(true) - $t;
echo "waited for the TTL: ", var_export($waited > 0.5 && $waited < 5.0, true), "\n";
try {
    $pdo->commit();
    echo "committed\n";
} catch (PDOException $e) {
    echo "commit failed: the holder's session was ended\n";
}
var_dump($holder->isHeld(), $holder->getRemainingLifetime(), $holder->refresh(10.0), $holder->release());
var_dump($contender->isHeld(), $contender->release());
?>
--EXPECT--
bool(true)
bool(true)
waited for the TTL: true
commit failed: the holder's session was ended
bool(false)
float(0)
bool(false)
bool(false)
bool(true)
bool(true)
