<?php
// Reports the worker's inotify descriptors at the start of the request, then (unless wait=0)
// waits briefly as the head of a lock's queue (the lock held by another object of this
// request), and reports them again: "pid before during".
$count = function (): int {
    $n = 0;
    foreach (glob('/proc/self/fd/*') as $fd) {
        $n += @readlink($fd) === 'anon_inode:inotify' ? 1 : 0;
    }
    return $n;
};
$before = $count();
$held = new Filelock($_GET['name']);
$held->try_lock();
if (($_GET['wait'] ?? '1') !== '0') {
    $waiter = new Filelock($_GET['name']);
    $waiter->lock(0.05);
}
echo getmypid(), ' ', $before, ' ', $count(), "\n";
$held->unlock();
