--TEST--
Native API, MySQL: forceRelease() frees a lock another process holds (its session is ended; it finds the lock lost), releases this process's own, is false on a free name, and rejects bad names
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
$backend = nv_backend('mysql');
$key = nl_lock_name('force');

// Another process holds it (TTL 60 s) and reports what it sees after the force.
$child = nl_spawn(nv_backend_code($backend) . '
    $l = new Nativelock\Lock($backend, ' . var_export($key, true) . ');
    echo $l->acquire(60.0) ? "held\n" : "not held\n";
    fgets(STDIN);
    echo "child isHeld=", var_export($l->isHeld(), true), " release=", var_export($l->release(), true), "\n";', [], $pipes);
echo 'child: ', nl_read_line($pipes[1]), "\n";
$probe = new Lock($backend, $key);
var_dump($probe->acquire(60.0, 0.0));           // held elsewhere
$t = microtime(true);
var_dump($backend->forceRelease($key));         // true: it was held
$took = microtime(true) - $t;
echo 'force took under 3 s: ', var_export($took < 3.0, true), "\n";
var_dump($probe->acquire(60.0, 0.0));           // free at once, no TTL to wait for
fwrite($pipes[0], "go\n");
echo nl_read_line($pipes[1]), "\n";
proc_close($child);
var_dump($probe->isHeld());                     // the child's release did not touch ours

// This process's own lock: released through its own session, not by killing it.
var_dump($backend->forceRelease($key), $probe->isHeld());
$other = new Lock($backend, $key);
var_dump($other->acquire(60.0, 0.0), $other->release());

// Nothing held: false.
var_dump($backend->forceRelease($key));

foreach (['', str_repeat('x', 65)] as $bad) {
    try {
        $backend->forceRelease($bad);
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
child: held
bool(false)
bool(true)
force took under 3 s: true
bool(true)
child isHeld=false release=false
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
ValueError: Nativelock\MysqlBackend::forceRelease(): Argument #1 ($key) must be a lock name of 1 to 64 characters
ValueError: Nativelock\MysqlBackend::forceRelease(): Argument #1 ($key) must be a lock name of 1 to 64 characters
