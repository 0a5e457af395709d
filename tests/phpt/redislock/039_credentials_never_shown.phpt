--TEST--
RedisLock: the Redis password never appears in messages, traces, var_dump()/print_r()/var_export() of a lock, or phpinfo()/--ri
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
$secret = 'Zq9Secret';
$hostPort = nl_redis_host() . ':' . nl_redis_port();
$seen = [];
$check = function (string $what, string $text) use ($secret, &$seen) {
    $seen[] = $what . ': ' . (str_contains($text, $secret) || str_contains($text, 'Zq9') ? "PASSWORD SHOWN\n$text" : 'clean');
};
// Malformed URIs (messages and traces with arguments).
foreach (["redis://u:$secret@h:abc", "redis://u:$secret/x@h:1", "redis://:$secret@h:0", "redis://user:$secret",
          "redis://h/0?password=$secret&timeout=1", "redis://u:$secret@h/notadb", 'redis://u:' . str_repeat($secret, 40) . '@h:0'] as $i => $uri) {
    try {
        RedisLock::setRedis($uri);
        $check("uri $i", 'accepted');
    } catch (ValueError $e) {
        $check("uri $i message", $e->getMessage());
        $check("uri $i trace", (string) $e);
        $check("uri $i getTrace", print_r($e->getTrace(), true));
    }
}
// A wrong password: the connection failure names host:port and the server's answer only.
RedisLock::setRedis("redis://nobody:$secret@$hostPort");
$lock = new RedisLock(nl_lock_name('creds'), 10, RedisLock::FAIL_EXCEPT);
try {
    $lock->lock();
} catch (RedisLockFailException $e) {
    $check('AUTH failure ' . get_class($e), (string) $e);
}
// The lock object and the module information.
ob_start();
var_dump($lock);
print_r($lock);
var_export($lock);
$check('dumps', ob_get_clean());
// The module's phpinfo section (what php --ri nativelock prints) after a lock was taken over a
// password connection: the pooled connection's parameters are not shown.
$r = nl_redis();
$user = 'nl-creds-' . getmypid();
$r->rawCommand('ACL', 'SETUSER', $user, 'on', ">$secret", '~*', '&*', '+@all');
RedisLock::setRedis("redis://$user:$secret@$hostPort");
$held = RedisLock::createAndLock(nl_lock_name('creds'), 10);
ob_start();
var_dump($held);
$ext = new ReflectionExtension('nativelock');
$ext->info();
$check('held lock dump and --ri', ob_get_clean());
$held->release();
$r->rawCommand('ACL', 'DELUSER', $user);
echo implode("\n", $seen), "\n";
?>
--EXPECT--
uri 0 message: clean
uri 0 trace: clean
uri 0 getTrace: clean
uri 1 message: clean
uri 1 trace: clean
uri 1 getTrace: clean
uri 2 message: clean
uri 2 trace: clean
uri 2 getTrace: clean
uri 3 message: clean
uri 3 trace: clean
uri 3 getTrace: clean
uri 4 message: clean
uri 4 trace: clean
uri 4 getTrace: clean
uri 5 message: clean
uri 5 trace: clean
uri 5 getTrace: clean
uri 6 message: clean
uri 6 trace: clean
uri 6 getTrace: clean
AUTH failure RedisLockConnectionException: clean
dumps: clean
held lock dump and --ri: clean
