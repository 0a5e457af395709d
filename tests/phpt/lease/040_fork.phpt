--TEST--
Auto-renewal and fork: a child neither renews nor stops its parent's leases; the parent's lock outlives the child's exit; the child's own lock is renewed by a thread of its own
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
posix
pcntl
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.auto_renew=1
--FILE--
<?php
require __DIR__ . '/lease.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('fork');
$lock = RedisLock::createAndLock($name, 2);
$shared = ls_take('mysql', sl_name('fork'), 2, 2);
$report = nl_lockdir() . '/fork.out';
$pid = pcntl_fork();
if ($pid === 0) {
    $out = 'child: parent\'s lock renewed here: ' . var_export($lock->isAutoRenewed(), true);
    $own = RedisLock::createAndLock("$name-child", 1);
    usleep(2_500_000);   // past the child's own TTL
    $out .= ', own lock renewed and held: ' . var_export($own->isAutoRenewed() && $own->isAcquired(), true);
    $own->release();
    file_put_contents($report, $out);
    exit(0);   // request end of the child: must not touch the parent's leases
}
pcntl_waitpid($pid, $status);
echo file_get_contents($report), "\n";
usleep(2_500_000);   // past the TTL again, after the child's exit
echo 'parent: both locks still held and renewed: ',
    var_export($lock->isAcquired() && $lock->isAutoRenewed() && !$shared['lost'](), true), "\n";
$lock->release();
echo $shared['release'](), "\n";
?>
--EXPECT--
child: parent's lock renewed here: false, own lock renewed and held: true
parent: both locks still held and renewed: true
released
