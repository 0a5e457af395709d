--TEST--
Native API: a second Lock object with the same token (a restored lock) — one holder on Redis, another object on files and MySQL
--EXTENSIONS--
igbinary
redis
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\{Lock, RedisBackend};
$backends = [
    'plain' => nv_backend('redis'),
    'symfony' => new RedisBackend(nl_redis_uri(), RedisBackend::FORMAT_SYMFONY),
    'file' => nv_backend('file'),
    'mysql' => nv_backend('mysql'),
];
foreach ($backends as $name => $backend) {
    $key = nl_lock_name("same-token-$name");
    $first = new Lock($backend, $key, 'the-owner-token');
    $first->acquire(30.0);
    $second = new Lock($backend, $key, 'the-owner-token');
    printf("%-8s second: isHeld %s, acquire %s, refresh %s, release %s; first still holds: %s\n", $name,
        var_export($second->isHeld(), true), var_export($second->acquire(30.0), true),
        var_export($second->refresh(30.0), true), var_export($second->release(), true),
        var_export($first->isHeld(), true));
    $first->release();
    $other = new Lock($backend, $key);
    printf("%-8s free afterwards: %s\n", $name, var_export($other->acquire(5.0) && $other->release(), true));
}
?>
--EXPECT--
plain    second: isHeld true, acquire false, refresh true, release true; first still holds: false
plain    free afterwards: true
symfony  second: isHeld true, acquire true, refresh true, release true; first still holds: false
symfony  free afterwards: true
file     second: isHeld false, acquire false, refresh false, release false; first still holds: true
file     free afterwards: true
mysql    second: isHeld false, acquire false, refresh false, release false; first still holds: true
mysql    free afterwards: true
