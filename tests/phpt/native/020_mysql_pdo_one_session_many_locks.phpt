--TEST--
Native API, MySQL on an application's PDO: Locks sharing the session never both hold a name (past the TTL, through another table, after forceRelease()); a persistent PDO is refused; ERRMODE_WARNING shows no protocol warnings
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
use Nativelock\MysqlBackend;
$pdo = nv_pdo();
$backend = new MysqlBackend($pdo);

// Past A's TTL (A no longer holds it, as isHeld() says, but its session still does), B on the
// same session cannot take it: the server would let the session take the name again, and
// only A's release() or another session's take-over (KILL) frees it.
$key = nl_lock_name('pdo-ttl2');
$a = new Lock($backend, $key);
$b = new Lock($backend, $key);
var_dump($a->acquire(1.0));
sleep(2);
var_dump($b->acquire(10.0, 0.0), $b->acquire(10.0, 0.2), $a->isHeld(), $a->release(), $b->acquire(10.0, 0.0), $b->release());

// Another table on the same PDO: the same GET_LOCK name, so the same exclusion.
$pdo->exec('CREATE TABLE IF NOT EXISTS nv_pdo_other LIKE shared_locks');
$c = new Lock(new MysqlBackend($pdo, null, null, 'nv_pdo_other'), $key);
var_dump($a->acquire(10.0), $c->acquire(10.0, 0.0), $a->release(), $c->acquire(10.0, 0.0), $c->release());

// forceRelease() takes it from A; B takes it; A's release() must not touch B's.
var_dump($a->acquire(10.0), $backend->forceRelease($key), $b->acquire(10.0, 0.0));
var_dump($a->isHeld(), $a->refresh(10.0), $a->release(), $b->isHeld(), $b->release());
echo "rows left: ", $pdo->query('SELECT COUNT(*) FROM shared_locks WHERE name = ' . $pdo->quote($key))->fetchColumn(), "\n";

$pdo->exec('DROP TABLE nv_pdo_other');

try {
    $p = new PDO(sprintf('mysql:host=%s;port=%s;dbname=%s', nl_env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'), nl_env('NATIVELOCK_MYSQL_PORT', '13306'), nl_env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test')),
        nl_env('NATIVELOCK_MYSQL_USER', 'nativelock'), nl_env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'), [PDO::ATTR_PERSISTENT => true]);
    new MysqlBackend($p);
    echo "persistent accepted\n";
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}

// A contended acquire runs statements that fail by design: no warning reaches the application.
$quiet = nv_pdo();
$quiet->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_WARNING);
set_error_handler(function ($no, $str) { echo "warning: $str\n"; return true; });
$holder = new Lock(nv_backend('mysql'), $key);
$holder->acquire(10.0);
$w = new Lock(new MysqlBackend($quiet), $key);
var_dump($w->acquire(10.0, 0.0), $w->acquire(10.0, 0.3));
$holder->release();
var_dump($w->acquire(10.0, 1.0), $w->release());
restore_error_handler();
var_dump($quiet->getAttribute(PDO::ATTR_ERRMODE) === PDO::ERRMODE_WARNING);

try {
    $backend->__construct('mysql:host=127.0.0.1');
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
rows left: 0
Nativelock\MysqlBackend::__construct(): Argument #1 ($dsn) must not be a persistent PDO (PDO::ATTR_PERSISTENT)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
Nativelock\MysqlBackend::__construct() cannot be called twice
