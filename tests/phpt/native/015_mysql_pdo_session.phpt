--TEST--
Native API, MySQL on an application's PDO: the lock lives in that session; two Locks on one PDO and other sessions exclude each other; refresh, remaining lifetime, no auto-renewal; bad arguments
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.auto_renew=1
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
use Nativelock\MysqlBackend;
$pdo = nv_pdo();
$backend = new MysqlBackend($pdo);
$key = nl_lock_name('pdo');
$a = new Lock($backend, $key);
var_dump($a->acquire(10.0));
echo "in the PDO's session: ", $pdo->query('SELECT IS_USED_LOCK(' . $pdo->quote($key) . ') = CONNECTION_ID()')->fetchColumn(), "\n";
echo "auto-renewed (INI on, not on a PDO): ", var_export($a->isAutoRenewed(), true), "\n";
// Another backend on the same PDO is the same session: still excluded, after a wait.
$b = new Lock(new MysqlBackend($pdo), $key);
$t = microtime(true);
var_dump($b->acquire(10.0, 0.0), $b->acquire(10.0, 0.5), microtime(true) - $t >= 0.45);
$other = new Lock(nv_backend('mysql'), $key);
var_dump($other->acquire(10.0, 0.0));
var_dump($a->isHeld(), $a->refresh(100.0), $a->getRemainingLifetime() > 90);
try {
    $a->setAutoRenew(true);
} catch (Nativelock\NotSupportedException $e) {
    echo "setAutoRenew: NotSupportedException\n";
}
var_dump($a->release(), $a->release(), $other->acquire(10.0, 2.0), $b->acquire(10.0, 0.0), $other->release());
var_dump($b->acquire(10.0, 2.0), $b->release());
echo "name free: ", var_export($pdo->query('SELECT IS_FREE_LOCK(' . $pdo->quote($key) . ')')->fetchColumn(), true), "\n";
foreach ([
    fn () => new MysqlBackend($pdo, 'user'),
    fn () => new MysqlBackend($pdo, null, 'secret'),
    fn () => new MysqlBackend($pdo, null, null, ''),
    fn () => new MysqlBackend(new stdClass()),
] as $bad) {
    try {
        $bad();
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
bool(true)
in the PDO's session: 1
auto-renewed (INI on, not on a PDO): false
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
setAutoRenew: NotSupportedException
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
name free: 1
ValueError: Nativelock\MysqlBackend::__construct(): Argument #2 ($username) must be null when a PDO is given (it is connected already)
ValueError: Nativelock\MysqlBackend::__construct(): Argument #3 ($password) must be null when a PDO is given (it is connected already)
ValueError: Nativelock\MysqlBackend::__construct(): Argument #4 ($table) must be a table name of 1 to 64 characters without ` or ?
TypeError: Nativelock\MysqlBackend::__construct(): Argument #1 ($dsn) must be of type PDO|string, stdClass given
