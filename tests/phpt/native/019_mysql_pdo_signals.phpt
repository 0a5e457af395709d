--TEST--
Native API, MySQL on an application's PDO: pcntl signal handlers run during a wait and the wait goes on; a handler that throws ends it with that exception, holding nothing
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
pcntl
posix
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
pcntl_async_signals(true);
$key = nl_lock_name('pdo-sig');
$holder = new Lock(nv_backend('mysql'), $key);
$holder->acquire(30.0);
$ran = 0;
pcntl_signal(SIGALRM, function () use (&$ran) { $ran++; });
$storm = nl_signal_storm();
$pdo = nv_pdo();
$waiter = new Lock(new Nativelock\MysqlBackend($pdo), $key);
$t = microtime(true);
$got = $waiter->acquire(30.0, 1.0);
nl_stop_child($storm);
printf("got=%s waited-full=%s handlers-ran=%s\n", var_export($got, true),
    var_export(microtime(true) - $t >= 0.95, true), var_export($ran > 0, true));
$armed = false;
pcntl_signal(SIGALRM, function () use (&$armed) {
    if ($armed) {
        throw new RuntimeException('stop');
    }
});
$storm = nl_signal_storm();
try {
    $armed = true;
    $waiter->acquire(30.0, 10.0);
    $armed = false;
    echo "no throw\n";
} catch (RuntimeException $e) {
    $armed = false;
    echo "handler threw: ", get_class($e), ' ', $e->getMessage(), "\n";
}
nl_stop_child($storm);
pcntl_signal(SIGALRM, SIG_DFL);
var_dump($waiter->isAcquired());
echo "the PDO's session holds nothing: ", $pdo->query('SELECT IFNULL(IS_USED_LOCK(' . $pdo->quote($key) . '), 0) <> CONNECTION_ID()')->fetchColumn(), "\n";
$holder->release();
var_dump($waiter->acquire(30.0, 2.0), $waiter->release());
?>
--EXPECT--
got=false waited-full=true handlers-ran=true
handler threw: RuntimeException stop
bool(false)
the PDO's session holds nothing: 1
bool(true)
bool(true)
