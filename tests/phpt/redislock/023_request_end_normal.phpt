--TEST--
RedisLock: locks held at normal end are released at request end (checked from another process)
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
$name = nl_lock_name('end-normal');
[$code, $out, $err] = nl_run(nl_redis_prelude() . '
    RedisLock::setRedis(nl_redis_uri());
    $stored = RedisLock::createAndLock(' . var_export($name, true) . ', 60);
    RedisLock::createAndLock(' . var_export($name . '-unstored', true) . ', 60);   // result not kept
    echo nl_redis()->exists(' . var_export('redislock:' . $name . '-unstored', true) . '), "\n";
    echo "ending\n";
');
echo $out;
echo str_contains($err, 'Fatal error') ? "fatal error reported\n" : '';
var_dump(nl_redis()->exists('redislock:' . $name), nl_redis()->exists('redislock:' . $name . '-unstored'));
?>
--EXPECT--
1
ending
int(0)
int(0)
