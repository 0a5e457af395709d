--TEST--
RedisLock::setRedis(): user names and passwords with / @ : # % are read as parse_url() + rawurldecode() read them (ACL user on the test server)
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
$r = nl_redis();
$user = 'nl-acl-' . getmypid();
$password = 'Zq9/w#x@y:z%?q+1';
$r->rawCommand('ACL', 'SETUSER', $user, 'on', '>' . $password, '~*', '&*', '+@all');
$hostPort = nl_redis_host() . ':' . nl_redis_port();
$uris = [
    'percent-encoded user and password' => 'redis://' . rawurlencode($user) . ':' . rawurlencode($password) . "@$hostPort/0",
    // parse_url() splits at the last '@' and the first ':': a raw '@' or ':' in the password works.
    'raw @ and : (no / # ?)' => null,
];
$r->rawCommand('ACL', 'SETUSER', $user . '-2', 'on', '>a@b:c', '~*', '&*', '+@all');
$uris['raw @ and : (no / # ?)'] = 'redis://' . $user . '-2:a@b:c@' . $hostPort;
foreach ($uris as $what => $uri) {
    RedisLock::setRedis($uri);
    $lock = RedisLock::createAndLock(nl_lock_name('acl'), 10);
    echo "$what: ", var_export($lock->isAcquired(), true), "\n";
    $lock->release();
}
// A raw '/' or '#' in the password: parse_url() rejects the URI; the message does not show it.
foreach (['redis://' . $user . ':' . $password . "@$hostPort", "redis://u:Zq9/ss@$hostPort", "redis://u:Zq9#ss@$hostPort"] as $uri) {
    try {
        RedisLock::setRedis($uri);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo str_contains($e->getMessage(), 'Zq9') ? "password shown: {$e->getMessage()}\n" : "rejected, password not shown\n";
    }
}
$r->rawCommand('ACL', 'DELUSER', $user, $user . '-2');
?>
--EXPECT--
percent-encoded user and password: true
raw @ and : (no / # ?): true
rejected, password not shown
rejected, password not shown
rejected, password not shown
