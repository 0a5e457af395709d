<?php
// Filelock across two processes: the second waits in lock() and is woken by the release
// itself (inotify), not by a 100 ms sleep-poll.
require __DIR__ . '/common.inc';
Filelock::$lockpath = sys_get_temp_dir() . '/';

$lock = new Filelock('demo-report');
echo "parent: try_lock() = ", $lock->try_lock(), " (LOCKFILE_SUCCESS)\n";

$child = demo_child('Filelock::$lockpath = sys_get_temp_dir() . "/"; $l = new Filelock("demo-report");
    echo "child:  try_lock() = ", $l->try_lock(), " (LOCKFILE_ERROR_ALREADY_LOCKED)\n";
    $t = microtime(true); $r = $l->lock(10.0);
    printf("child:  lock() = %d after %.1f ms, woken by the release\n", $r, (microtime(true) - $t) * 1000);
    $l->unlock();');
usleep(300000);
echo "parent: unlock() after 300 ms of work\n";
$lock->unlock();
proc_close($child);

// A holder that crashes does not block anyone: its death is provable, its lock is broken.
$crasher = demo_child('Filelock::$lockpath = sys_get_temp_dir() . "/"; ini_set("nativelock.auto_release", "0");
    $l = new Filelock("demo-crash"); $l->try_lock(); posix_kill(getmypid(), 9);');
proc_close($crasher);
$lock = new Filelock('demo-crash');
echo "after a holder was SIGKILLed: is_locked() = ", var_export($lock->is_locked(), true),
    ", try_lock() = ", $lock->try_lock(), "\n";
