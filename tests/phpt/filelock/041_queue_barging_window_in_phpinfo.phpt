--TEST--
Filelock: phpinfo() describes the queue: first come first served after a 1 ms barging window per headship, once a wait has written its headship
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
// The wait wrote its headship: this lock's word in the queue file's table (slot / 2 % 4096 words
// of 8 bytes: slots are even) carries the slot's top bits (ext/core/file/local_queue.cpp), so the row below
// reports a write that was made, not one that never was.
$slot = nl_queue_slot(Filelock::$lockpath . 'q041.lock');
$queue = (is_dir('/dev/shm') ? '/dev/shm' : '/tmp') . '/nativelock-queue2.' . trim((string) shell_exec('id -u'));
$word = unpack('P', (string) file_get_contents($queue, false, null, (($slot >> 1) & 4095) * 8, 8))[1] ?? 0;
var_dump($word >> 40 === $slot >> 40);
echo $row(), "\n";
?>
--EXPECT--
int(1)
int(-1)
bool(true)
per host and user, first come first served after a 1 ms barging window per headship (as Go's sync.Mutex); only the head watches the lock file
