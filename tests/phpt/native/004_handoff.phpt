--TEST--
Native API: a waiter in another process gets the lock as soon as the holder releases (every backend), and a timed-out wait returns false
--EXTENSIONS--
igbinary
redis
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
foreach (['redis', 'file', 'mysql'] as $kind) {
    $backend = nv_backend($kind);
    $key = nl_lock_name('handoff');
    $lock = new Lock($backend, $key);
    $lock->acquire(30.0);
    $proc = nl_spawn(nv_backend_code($backend) . '
        $l = new Nativelock\Lock($backend, ' . var_export($key, true) . ');
        echo "waiting\n";
        $ok = $l->acquire(30.0, 20.0);
        echo ($ok ? "got" : "timeout") . " " . microtime(true) . "\n";
        $l->release();', [], $pipes);
    nl_read_line($pipes[1]);
    usleep(300000);
    $t = microtime(true);
    $lock->release();
    [$what, $at] = explode(' ', nl_read_line($pipes[1], 20.0));
    proc_close($proc);
    // Generous: the bench measures hand-off (p50 well under 1 ms); here it must not be a poll.
    printf("%s: %s %s\n", $kind, $what, ($at - $t) < 1.0 ? 'promptly' : 'late: ' . ($at - $t));
    $lock->acquire(30.0);
    $other = new Lock($backend, $key);
    $t = microtime(true);
    var_dump($other->acquire(30.0, 0.3), microtime(true) - $t >= 0.25);
    $lock->release();
}
?>
--EXPECT--
redis: got promptly
bool(false)
bool(true)
file: got promptly
bool(false)
bool(true)
mysql: got promptly
bool(false)
bool(true)
