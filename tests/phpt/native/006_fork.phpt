--TEST--
Native API: a forked child neither releases its parent's lock (release(), request end, exit) nor shares its random token
--EXTENSIONS--
igbinary
redis
pcntl
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
foreach (['redis', 'file', 'mysql'] as $kind) {
    $backend = nv_backend($kind);
    $key = nl_lock_name('fork');
    $lock = new Lock($backend, $key);
    $lock->acquire(60.0);
    $token = $lock->getToken();
    $pid = pcntl_fork();
    if ($pid === 0) {
        $r = [$lock->isAcquired(), $lock->isHeld(), $lock->release()];
        // The child's own attempt: a token of its own, and the parent's lock excludes it.
        $mine = $lock->acquire(5.0);
        file_put_contents(sys_get_temp_dir() . "/nvfork-$key", json_encode([$r, $mine, $lock->getToken() !== $token]));
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    $child = json_decode(file_get_contents(sys_get_temp_dir() . "/nvfork-$key"));
    unlink(sys_get_temp_dir() . "/nvfork-$key");
    printf("%s: child saw %s, child got it: %s, new token: %s; parent still holds: %s\n", $kind,
        json_encode($child[0]), var_export($child[1], true), var_export($child[2], true),
        var_export($lock->isHeld(), true));
    $lock->release();
}
?>
--EXPECT--
redis: child saw [false,false,false], child got it: false, new token: true; parent still holds: true
file: child saw [false,false,false], child got it: false, new token: true; parent still holds: true
mysql: child saw [false,false,false], child got it: false, new token: true; parent still holds: true
