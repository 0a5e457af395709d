--TEST--
RedisLock: a process running the original gist (phpredis via Credis_Client) and the extension exclude each other, both ways
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
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('interop');
$lib = dirname(__DIR__, 2) . '/lib';
$original = function (string $body) use ($lib, $name) {
    return nl_run(nl_redis_prelude() . "require '$lib/credis_client.inc'; require '$lib/original_redislock.inc';
        \\NlOriginal\\RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port()));
        \$name = " . var_export($name, true) . ";\n" . $body);
};

// 1. The extension holds: the original cannot get it, cannot release it.
$ext = RedisLock::createAndLock($name, 30);
[$code, $out, $err] = $original('
    try { \NlOriginal\RedisLock::createAndLock($name, 30); echo "original GOT it\n"; }
    catch (\NlOriginal\RedisLockFailException $e) { echo "original: ", $e->getMessage(), "\n"; }
    $l = \NlOriginal\RedisLock::create($name, 30, \NlOriginal\RedisLock::FAIL_RETURN);
    var_dump($l->lock());
');
echo str_replace($name, 'NAME', $out), $err;
var_dump($ext->isAcquired());
$ext->release();

// 2. Released by the extension: the original gets it.
[$code, $out, $err] = $original('
    $l = \NlOriginal\RedisLock::createAndLock($name, 30);
    echo "original got it\n";
    echo getmypid(), "\n";
    // keep it: the parent checks the extension is excluded, then the original releases
    $l2 = \NlOriginal\RedisLock::create($name, 30, \NlOriginal\RedisLock::FAIL_RETURN);
    var_dump($l2->lock());
    $l->release();
');
echo preg_replace('/^\d+$/m', 'PID', $out), $err;

// 3. The original holds (in a child that waits for our signal), the extension is excluded,
//    then a FAIL_BLOCK waiter in the extension notices the original's release (which does not
//    publish) through the fallback poll.
$child = nl_spawn(nl_redis_prelude() . "require '$lib/credis_client.inc'; require '$lib/original_redislock.inc';
    \\NlOriginal\\RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port()));
    \$l = \\NlOriginal\\RedisLock::createAndLock(" . var_export($name, true) . ", 30);
    echo \"held\\n\";
    fgets(STDIN);
    \$l->release();
    echo \"released\\n\";
", [], $pipes);
echo nl_read_line($pipes[1], 60), "\n";
var_dump(RedisLock::createAndLock($name, 30, RedisLock::FAIL_RETURN));
fwrite($pipes[0], "go\n");
$t = microtime(true);
$lock = RedisLock::createAndLock($name, 30, RedisLock::FAIL_BLOCK);
$w = microtime(true) - $t;
echo nl_read_line($pipes[1], 60), "\n";
var_dump($lock->isAcquired(), $w < 5);
$lock->release();
fclose($pipes[0]); fclose($pipes[1]); fclose($pipes[2]);
proc_close($child);

// 4. The original's FAIL_BLOCK waiter gets a lock the extension releases.
$ext = RedisLock::createAndLock($name, 30);
$child = nl_spawn(nl_redis_prelude() . "require '$lib/credis_client.inc'; require '$lib/original_redislock.inc';
    \\NlOriginal\\RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port()));
    echo \"waiting\\n\";
    \$l = \\NlOriginal\\RedisLock::createAndLock(" . var_export($name, true) . ", 30, \\NlOriginal\\RedisLock::FAIL_BLOCK);
    echo \"original got it after release\\n\";
    \$l->release();
", [], $pipes);
echo nl_read_line($pipes[1], 60), "\n";
usleep(300000);
$ext->release();
echo nl_read_line($pipes[1], 20), "\n";
fclose($pipes[0]); fclose($pipes[1]); fclose($pipes[2]);
proc_close($child);
var_dump(nl_redis()->exists('redislock:' . $name));
?>
--EXPECT--
original: Could not get lock "NAME"
bool(false)
bool(true)
original got it
PID
bool(false)
held
bool(false)
released
bool(true)
bool(true)
waiting
original got it after release
int(0)
