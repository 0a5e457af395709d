--TEST--
RedisLock: 8 processes contending with FAIL_BLOCK: no lost update, no waiter starved
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
$name = nl_lock_name('contend');
$counter = "nltest-counter-$name";
$r = nl_redis();
$r->set($counter, 0);
$rounds = 25;
$children = [];
for ($p = 0; $p < 8; $p++) {
    $children[] = nl_spawn(nl_redis_prelude() . '
        RedisLock::setRedis(nl_redis_uri());
        $r = nl_redis();
        $max = 0;
        for ($i = 0; $i < ' . $rounds . '; $i++) {
            $t = microtime(true);
            $lock = RedisLock::createAndLock(' . var_export($name, true) . ', 30, RedisLock::FAIL_BLOCK);
            $max = max($max, microtime(true) - $t);
            $v = (int) $r->get(' . var_export($counter, true) . ');   // read-modify-write under the lock
            usleep(500);
            $r->set(' . var_export($counter, true) . ', $v + 1);
            $lock->release();
        }
        printf("done %.3f\n", $max);
    ', [], $pipes);
    $children[count($children) - 1] = [$children[count($children) - 1], $pipes];
}
$done = 0;
$maxWait = 0;
foreach ($children as [$proc, $pipes]) {
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    proc_close($proc);
    if (preg_match('/^done ([\d.]+)$/m', $out, $m)) {
        $done++;
        $maxWait = max($maxWait, (float) $m[1]);
    } else {
        echo "child failed: $out $err\n";
    }
}
var_dump($done, (int) $r->get($counter));
printf("longest single wait %.3f s\n", $maxWait);
$r->del($counter);
?>
--EXPECTF--
int(8)
int(200)
longest single wait %f s
