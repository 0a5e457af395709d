--TEST--
Native API, Redis plain format: SET key token with a TTL, compare-and-delete, the same token releases from another object
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
$r = nl_redis();
$backend = nv_backend('redis');
$key = nl_lock_name('plain');
$a = new Lock($backend, $key);
var_dump($a->acquire(7.5));
var_dump($r->get($key) === $a->getToken(), $r->ttl($key), $backend->currentOwner($key) === $a->getToken());
var_dump($a->isHeld(), $a->isAcquired(), $a->getRemainingLifetime() > 7.0);
$b = new Lock($backend, $key);
var_dump($b->acquire(5.0), $b->release(), $r->get($key) === $a->getToken());
// Laravel's restoreLock(): the same token from another object releases.
$restored = new Lock($backend, $key, $a->getToken());
var_dump($restored->isHeld(), $restored->release(), $r->exists($key), $a->release());
// No TTL: kept "for ever" (1e9 s), reported as no expiry.
var_dump($a->acquire(null), $a->getRemainingLifetime(), $r->ttl($key) > 900000000, $a->release());
// A stock client's key (e.g. Laravel's own RedisLock) excludes us; forceRelease() frees it.
$r->set($key, 'stock-owner', ['nx', 'ex' => 30]);
var_dump($a->acquire(5.0), $backend->currentOwner($key), $backend->forceRelease($key), $a->acquire(5.0), $a->release());
var_dump($backend->forceRelease($key), $backend->currentOwner($key));
?>
--EXPECT--
bool(true)
bool(true)
int(8)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
bool(false)
bool(true)
NULL
bool(true)
bool(true)
bool(false)
string(11) "stock-owner"
bool(true)
bool(true)
bool(true)
bool(false)
NULL
