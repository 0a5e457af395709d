--TEST--
Native API, MySQL on an application's PDO: user code that forks inside nativelock's statement leaves the child with a failed acquire and a PDO cut off from the parent's socket; the parent's lock and session are intact
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
require __DIR__ . '/pdo_hook.inc';
use Nativelock\Lock;
$pdo = nv_hook_pdo();
$pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, false);
$connection = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
$key = nl_lock_name('pdo-forkin');
$a = new Lock(new Nativelock\MysqlBackend($pdo), $key);
$parent = getmypid();
$out = sys_get_temp_dir() . "/nvforkin-$key";
// As a signal handler would: after the server answered the prepare, before its execute.
$pdo->after = function (string $query) use ($pdo) {
    if (str_starts_with($query, 'INSERT')) {
        $pdo->after = null;
        $GLOBALS['child'] = pcntl_fork();
    }
};
try {
    $r = var_export($a->acquire(10.0, 0.0), true);
} catch (Nativelock\LockException $e) {
    $r = $e->getMessage();
}
if (getmypid() !== $parent) {
    file_put_contents($out, $r);
    exit(0);
}
pcntl_waitpid($GLOBALS['child'], $status);
echo "child: ", file_get_contents($out), "\n";
unlink($out);
echo "parent: acquired ", $r, ", held ", var_export($a->isHeld(), true), ", same session ",
    var_export($pdo->query('SELECT CONNECTION_ID()')->fetchColumn() === $connection, true), "\n";
var_dump($a->release());
?>
--EXPECT--
child: Nativelock\Lock::acquire(): a signal handler forked during a MySQL statement: the child does not go on with its parent's session
parent: acquired true, held true, same session true
bool(true)
