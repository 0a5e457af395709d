--TEST--
Native API: pcntl signal handlers run during a wait and the wait goes on; a handler that throws ends it (every backend)
--EXTENSIONS--
igbinary
redis
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
foreach (['redis', 'file', 'mysql'] as $kind) {
    $backend = nv_backend($kind);
    $key = nl_lock_name('sig');
    $holder = new Lock($backend, $key);
    $holder->acquire(30.0);
    $ran = 0;
    pcntl_signal(SIGALRM, function () use (&$ran) { $ran++; });
    $storm = nl_signal_storm();
    $waiter = new Lock($backend, $key);
    $t = microtime(true);
    $got = $waiter->acquire(30.0, 1.0);
    nl_stop_child($storm);
    printf("%s: got=%s waited-full=%s handlers-ran=%s\n", $kind, var_export($got, true),
        var_export(microtime(true) - $t >= 0.95, true), var_export($ran > 0, true));
    // Armed only inside the call: on a slow machine a signal can land before the try block.
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
        echo "$kind: handler threw: ", $e->getMessage(), "\n";
    }
    nl_stop_child($storm);
    pcntl_signal(SIGALRM, SIG_DFL);
    $holder->release();
    var_dump($waiter->acquire(30.0, 2.0), $waiter->release());
}
?>
--EXPECT--
redis: got=false waited-full=true handlers-ran=true
redis: handler threw: stop
bool(true)
bool(true)
file: got=false waited-full=true handlers-ran=true
file: handler threw: stop
bool(true)
bool(true)
mysql: got=false waited-full=true handlers-ran=true
mysql: handler threw: stop
bool(true)
bool(true)
