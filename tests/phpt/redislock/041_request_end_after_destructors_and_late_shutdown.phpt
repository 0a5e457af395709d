--TEST--
RedisLock: a held lock is released at request end only after destructors and shutdown functions registered after it (also nested ones)
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
$name = nl_lock_name('shutdown-order');
$key = 'redislock:' . $name;
[$code, $out, $err] = nl_run(nl_redis_prelude() . '
RedisLock::setRedis(nl_redis_uri());
$key = ' . var_export($key, true) . ';
$seen = function (string $who) use ($key) {
    echo $who, ": ", nl_redis()->exists($key) ? "held" : "gone", "\n";
};
class Job {
    public $lock;
    public $seen;
    function __destruct() { ($this->seen)("Job::__destruct"); }
}
$job = new Job();
$job->seen = $seen;
$job->lock = RedisLock::createAndLock(' . var_export($name, true) . ', 30);
register_shutdown_function(function () use ($seen) {
    $seen("shutdown function registered after the lock");
    register_shutdown_function(fn () => $seen("nested shutdown function"));
});
function scope() {
    // Out of scope while holding: not released early either.
    $local = RedisLock::createAndLock(' . var_export($name . '-local', true) . ', 30);
}
scope();
echo "after scope(): ", nl_redis()->exists(' . var_export($key . '-local', true) . ') ? "held" : "gone", "\n";
');
echo $out, $err;
var_dump($code);
$r = nl_redis();
var_dump($r->exists($key), $r->exists($key . '-local'));
?>
--EXPECT--
after scope(): held
shutdown function registered after the lock: held
nested shutdown function: held
Job::__destruct: held
int(0)
int(0)
int(0)
