--TEST--
RedisLock: releasing a lock that expired and was taken by another process leaves the other's key alone
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$r = nl_redis();
$name = nl_lock_name('takeover');
$mine = RedisLock::createAndLock($name, 1);
usleep(1300000);
[$code, $out, $err] = nl_run(nl_redis_prelude() . '
    RedisLock::setRedis(nl_redis_uri());
    $l = RedisLock::createAndLock(' . var_export($name, true) . ', 30);
    echo "taken\n";
    exit(0);
' . '// keep the key: the exit releases it, so re-set it below', []);
echo $out, $err;
// The child released at exit; take it over explicitly from "another process".
$r->set('redislock:' . $name, 'other-owner-value', ['EX' => 30]);
$mine->release();
var_dump($r->get('redislock:' . $name));
var_dump($mine->isAcquired());
$r->del('redislock:' . $name);
?>
--EXPECT--
taken
string(17) "other-owner-value"
bool(false)
