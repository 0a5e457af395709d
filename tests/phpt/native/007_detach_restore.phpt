--TEST--
Native API: a detached lock outlives the request; another process releases it with the token (Laravel's restoreLock())
--EXTENSIONS--
igbinary
redis
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
$backend = nv_backend('redis');
$key = nl_lock_name('restore');
[$code, $out] = nl_run(nv_backend_code($backend) . '
    $l = new Nativelock\Lock($backend, ' . var_export($key, true) . ');
    $l->acquire(60.0); $l->detach(); echo $l->getToken();');
$token = trim($out);
var_dump($backend->currentOwner($key) === $token);
[$code, $out] = nl_run(nv_backend_code($backend) . '
    $l = new Nativelock\Lock($backend, ' . var_export($key, true) . ', ' . var_export($token, true) . ');
    var_dump($l->isHeld(), $l->release());');
echo $out;
var_dump($backend->currentOwner($key));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
NULL
