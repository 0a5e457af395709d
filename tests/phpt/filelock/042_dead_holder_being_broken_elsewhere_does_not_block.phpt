--TEST--
Filelock: while another process holds the flock on a dead holder's lock file (a breaker stopped between its flock() and its unlink()), try_lock() returns at once and lock($timeout) keeps its deadline and runs signal handlers
--DESCRIPTION--
Breakers of a dead holder's file serialize on its flock. Until 2026-12-08 they waited for it
without limit: a breaker that was stopped there (SIGSTOP, a frozen cgroup), or any other flock on
the file, held every try_lock() and every deadline on the host, with signal handlers held off.
--EXTENSIONS--
nativelock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$name = 'q042_' . getmypid();
$file = $dir . $name . '.lock';
// Children are spawned PHP processes (not forks): they run natively under valgrind too.
// A holder that dies holding (SIGKILL: no release).
[$code] = nl_run('Filelock::$lockpath = ' . var_export($dir, true) . '; (new Filelock('
    . var_export($name, true) . '))->try_lock(); posix_kill(getmypid(), SIGKILL);');
echo 'the holder died holding: ', file_exists($file) ? 'yes' : 'no', "\n";
// Another process holds the flock of the dead holder's file, as a breaker stopped there does.
$other = nl_spawn('$fh = fopen(' . var_export($file, true) . ', "r"); flock($fh, LOCK_EX); echo "ready\n"; sleep(60);', [], $pipes);
echo 'the other process: ', nl_read_line($pipes[1]), "\n";
$lock = new Filelock($name);
$t = microtime(true);
$rc = $lock->try_lock();
printf("try_lock(): %d, %s\n", $rc, microtime(true) - $t < 1.0 ? 'at once' : 'after ' . round(microtime(true) - $t, 2) . ' s');
pcntl_async_signals(true);
$handled = false;
pcntl_signal(SIGALRM, function () use (&$handled) { $handled = microtime(true); });
pcntl_alarm(1);
$t = microtime(true);
$rc = $lock->lock(1.5);
$took = microtime(true) - $t;
printf("lock(1.5): %d, %s\n", $rc, $took < 3.0 ? 'by its deadline' : "after $took s");
echo 'the handler ran ', $handled && $handled - $t < 1.6 ? 'during the wait' : 'late or never', "\n";
// Once the other process lets go, the dead holder's lock is broken and taken.
proc_terminate($other, 9);
proc_close($other);
$rc = $lock->lock(5.0);
printf("after the flock is gone, lock(5.0): %d\n", $rc);
$lock->unlock();
var_dump(file_exists($file));
?>
--EXPECT--
the holder died holding: yes
the other process: ready
try_lock(): -1, at once
lock(1.5): -1, by its deadline
the handler ran during the wait
after the flock is gone, lock(5.0): 1
bool(false)
