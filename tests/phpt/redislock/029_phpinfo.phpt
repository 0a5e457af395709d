--TEST--
RedisLock: php --ri nativelock shows a RedisLock section (hiredis version, no TLS, both pools with their idle timeout) and the INI settings
--EXTENSIONS--
nativelock
--INI--
pcre.jit=0
--FILE--
<?php
ob_start();
(new ReflectionExtension('nativelock'))->info();
$info = ob_get_clean();
foreach (explode("\n", $info) as $line) {
    if (preg_match('/^(RedisLock|nativelock\.redis_|nativelock\.pool_)/', $line)) {
        echo preg_replace('/\d+\.\d+\.\d+/', 'X.Y.Z', $line), "\n";
    }
}
?>
--EXPECT--
RedisLock => enabled
RedisLock client => hiredis X.Y.Z (no TLS)
RedisLock protocol => SET NX EX; waiters queue FIFO, a release hands the lock to the oldest live waiter and wakes only it
RedisLock pooled connections => 0 open, 0 opened in this process, 0 closed idle (idle timeout 60 s)
RedisLock wake-up (subscriber) connections => 0 open, 0 opened in this process, 0 closed idle (idle timeout 60 s)
nativelock.redis_connect_timeout => 2 => 2
nativelock.redis_read_timeout => 5 => 5
nativelock.pool_idle_timeout => 60 => 60
