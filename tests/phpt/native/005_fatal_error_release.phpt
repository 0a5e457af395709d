--TEST--
Native API: a lock held when the request dies of a fatal error is released at request end (every backend); a detached one is not
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
    foreach ([false, true] as $detach) {
        $key = nl_lock_name('fatal');
        [$code, $out, $err] = nl_run(nv_backend_code($backend) . '
            $l = new Nativelock\Lock($backend, ' . var_export($key, true) . ');
            $l->acquire(60.0);' . ($detach ? '$l->detach();' : '') . '
            echo "held\n";
            function f() { f(); }
            ini_set("memory_limit", "8M");
            f();');
        $probe = new Lock($backend, $key);
        $free = $probe->acquire(5.0, 0.0);
        printf("%s detach=%d: child said %s, lock %s\n", $kind, $detach, trim($out), $free ? 'free' : 'still held');
        $probe->release();
        if (!$free && $kind === 'redis') $backend->forceRelease($key);
    }
}
?>
--EXPECTF--
redis detach=0: child said held, lock free
redis detach=1: child said held, lock still held
file detach=0: child said held, lock free
file detach=1: child said held, lock %s
mysql detach=0: child said held, lock free
mysql detach=1: child said held, lock %s
