--TEST--
RedisLock::setRedis(): URI strings (redis://, tcp://, unix:///, /path, database)
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
$r = nl_redis();
$name = nl_lock_name('uri');
$check = function (string $uri, int $db = 0) use ($name) {
    RedisLock::setRedis($uri);
    $lock = RedisLock::createAndLock($name, 10);
    $ok = nl_redis($db)->get('redislock:' . $name) !== false;
    $lock->release();
    echo ($ok ? 'ok ' : 'MISSING ') . preg_replace('/\d+/', 'N', $uri) . "\n";
};
$check('redis://' . nl_redis_host() . ':' . nl_redis_port());
$check('tcp://' . nl_redis_host() . ':' . nl_redis_port());
$check('redis://' . nl_redis_host() . ':' . nl_redis_port() . '/3', 3);
// A unix socket: the test server gets one for the duration of this test.
$sock = sys_get_temp_dir() . '/nl-redis-' . getmypid() . '.sock';
@unlink($sock);
$proc = proc_open(['redis-server', '--port', '0', '--unixsocket', $sock, '--save', '', '--appendonly', 'no'],
    [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
register_shutdown_function(function () use ($proc, $sock) {
    proc_terminate($proc, 9);
    proc_close($proc);
    @unlink($sock);
});
for ($i = 0; $i < 1500 && !file_exists($sock); $i++) usleep(20000);   // slow under valgrind
RedisLock::setRedis('unix://' . $sock);
$lock = RedisLock::createAndLock($name, 10);
$u = new Redis(); $u->connect($sock);
echo $u->get('redislock:' . $name) !== false ? "ok unix://\n" : "MISSING unix://\n";
$lock->release();
RedisLock::setRedis($sock);
$lock = RedisLock::createAndLock($name, 10);
echo $u->get('redislock:' . $name) !== false ? "ok /path\n" : "MISSING /path\n";
$lock->release();
// The static $redis holds what was given, like the original.
$p = new ReflectionProperty('RedisLock', 'redis');
var_dump($p->getValue());
?>
--EXPECTF--
ok redis://N.N.N.N:N
ok tcp://N.N.N.N:N
ok redis://N.N.N.N:N/N
ok unix://
ok /path
string(%d) "%s.sock"
