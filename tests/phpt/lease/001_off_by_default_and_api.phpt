--TEST--
Auto-renewal: off by default; the per-lock switch on RedisLock, SharedLockHandle and Nativelock\Lock starts and stops the renewal; files and PDO sessions refuse it; php --ri shows the thread
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
posix
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/lease.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;

function renewer(): string
{
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match('/Auto-renewal locks renewed now => (\d+)/', ob_get_clean(), $m);
    return $m[1] ?? '?';
}

echo 'nativelock.auto_renew: ', var_export(ini_get('nativelock.auto_renew'), true), "\n";
RedisLock::setRedis(nl_redis_uri());
$lock = RedisLock::createAndLock(nl_lock_name('api'), 5);
echo 'RedisLock held, renewed: ', var_export($lock->isAutoRenewed(), true), ', leases ', renewer(), "\n";
echo 'setAutoRenew() returns $this: ', var_export($lock->setAutoRenew() === $lock, true), "\n";
echo 'renewed now: ', var_export($lock->isAutoRenewed(), true), ', leases ', renewer(), "\n";
$lock->setAutoRenew(false);
echo 'switched off: ', var_export($lock->isAutoRenewed(), true), ', leases ', renewer(), "\n";
$lock->setAutoRenew(true);
$lock->release();
echo 'released: ', var_export($lock->isAutoRenewed(), true), ', leases ', renewer(), "\n";
// The switch made before lock() applies at lock().
$lock->lock();
echo 'locked again with the switch on: ', var_export($lock->isAutoRenewed(), true), "\n";
$lock->release();

sl_configure();
$handle = SharedLock::lock(sl_name('api'), 1, 5);
$handle->setAutoRenew();
echo 'SharedLock renewed: leases ', renewer(), "\n";
$handle->release();
echo 'released: leases ', renewer(), "\n";
try {
    $handle->setAutoRenew();
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
ini_set('nativelock.sharedlock_driver', 'pdo');
sl_configure();
$handle = SharedLock::lock(sl_name('api'), 1, 5);
try {
    $handle->setAutoRenew();
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$handle->release();

ini_set('nativelock.auto_renew', '1');
$n = new Nativelock\Lock(nv_backend('mysql'), sl_name('api'));
$n->acquire(5);
echo 'native MySQL with the INI on: ', var_export($n->isAutoRenewed(), true), ', leases ', renewer(), "\n";
$n->acquire(null);
echo 'taken again without TTL (nothing to renew): ', var_export($n->isAutoRenewed(), true), "\n";
$n->release();
$n = new Nativelock\Lock(nv_backend('redis'), nl_lock_name('api'));
$n->acquire(5);
$n->detach();
echo 'detached: ', var_export($n->isAutoRenewed(), true), ', leases ', renewer(), "\n";
$f = new Nativelock\Lock(nv_backend('file'), 'api');
try {
    $f->setAutoRenew();
} catch (Nativelock\NotSupportedException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
echo 'files follow the INI without renewal: ', var_export($f->acquire(5) && !$f->isAutoRenewed(), true), "\n";
$f->release();
echo 'off again: ', var_export($f->setAutoRenew(false) === $f, true), "\n";
?>
--EXPECTF--
nativelock.auto_renew: '0'
RedisLock held, renewed: false, leases 0
setAutoRenew() returns $this: true
renewed now: true, leases 1
switched off: false, leases 0
released: false, leases 0
locked again with the switch on: true
SharedLock renewed: leases 1
released: leases 0
ItsMieger\MySqlSharedLocks\Exception\SharedLockException: Lock is not held: nothing to renew
ItsMieger\MySqlSharedLocks\Exception\SharedLockException: Auto-renewal needs the native driver (nativelock.sharedlock_driver=native and configureConnection())
native MySQL with the INI on: true, leases 1
taken again without TTL (nothing to renew): false
detached: false, leases 0
Nativelock\NotSupportedException: Nativelock\Lock::setAutoRenew(): locks of this backend have no TTL to renew
files follow the INI without renewal: true
off again: true
