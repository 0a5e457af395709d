--TEST--
Filelock: a forked child exiting (normally, by exit() or unlock()) leaves the parent's lock held
--EXTENSIONS--
nativelock
pcntl
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
$lock = new Filelock('forked');
var_dump($lock->try_lock());
foreach (['end', 'exit', 'unlock'] as $how) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        if ($how === 'unlock') { $lock->unlock(); }
        if ($how === 'exit') { exit(0); }
        // falls off the end: request shutdown in the child
        return;
    }
    pcntl_waitpid($pid, $status);
    echo "$how: ", json_encode(file_exists($dir . 'forked.lock')), "\n";
}
$other = new Filelock('forked');
var_dump($other->try_lock());
$lock->unlock();
var_dump(file_exists($dir . 'forked.lock'));
?>
--EXPECT--
int(1)
end: true
exit: true
unlock: true
int(-1)
bool(false)
