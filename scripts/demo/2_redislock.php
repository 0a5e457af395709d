<?php
// RedisLock across two processes: the gist's API, but FAIL_BLOCK waiters are woken by the
// release (pub/sub) instead of sleeping 1, 2, 4, 8 s between tries.
require __DIR__ . '/common.inc';
$url = sprintf('redis://%s:%s', getenv('NATIVELOCK_REDIS_HOST'), getenv('NATIVELOCK_REDIS_PORT'));
RedisLock::setRedis($url);

$lock = RedisLock::createAndLock('demo-invoices', RedisLock::DEFAULT_TIMEOUT);
echo "parent: createAndLock() took redislock:demo-invoices for ", RedisLock::DEFAULT_TIMEOUT, " s\n";

$child = demo_child('RedisLock::setRedis(' . var_export($url, true) . ');
    var_dump(RedisLock::createAndLock("demo-invoices", 20, RedisLock::FAIL_RETURN));
    $t = microtime(true);
    $l = RedisLock::createAndLock("demo-invoices", 20, RedisLock::FAIL_BLOCK);
    printf("child:  FAIL_BLOCK got it after %.1f ms, woken by the release\n", (microtime(true) - $t) * 1000);
    $l->release();');
usleep(300000);
echo "parent: release() after 300 ms of work\n";
$lock->release();
proc_close($child);

$lock = RedisLock::createAndLock('demo-invoices', 5);
printf("refresh/isAcquired/getRemainingLifetime: %s %s %.1f s\n", var_export($lock->refresh(30), true),
    var_export($lock->isAcquired(), true), $lock->getRemainingLifetime());
$lock->release();
