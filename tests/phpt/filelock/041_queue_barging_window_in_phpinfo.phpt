--TEST--
Filelock: php --ri describes the queue: first come first served after a 1 ms barging window per headship, once a wait has written its headship
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = nl_lockdir();
$row = function (): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/Filelock queue => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '(no row)';
};
$holder = new Filelock('q041');
var_dump($holder->try_lock());
$waiter = new Filelock('q041');
var_dump($waiter->lock(0.2));  // waits at the head of the queue: writes its headship
$holder->unlock();
echo $row(), "\n";
?>
--EXPECT--
int(1)
int(-1)
per host and user, first come first served after a 1 ms barging window per headship (as Go's sync.Mutex); only the head watches the lock file
