--TEST--
Filelock: only a waiting head opens an inotify instance, and php --ri says so
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$row = function (): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/Filelock release events => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '(no row)';
};
echo $row(), "\n";
$held = new Filelock('q037');
var_dump($held->lock(5));
$waiter = new Filelock('q037');
var_dump($waiter->lock(0));    // a try: no wait, no instance
echo $row(), "\n";
var_dump($waiter->lock(0.2));  // a wait, as the queue's head
echo $row(), "\n";
$held->unlock();
?>
--EXPECT--
inotify, no instance open; 0 instances opened and 0 given back in this process, 0 waits polled
int(1)
int(-1)
inotify, no instance open; 0 instances opened and 0 given back in this process, 0 waits polled
int(-1)
inotify, an instance open; 1 instances opened and 0 given back in this process, 0 waits polled
