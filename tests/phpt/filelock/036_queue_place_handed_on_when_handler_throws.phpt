--TEST--
Filelock: a signal handler that ends a queued lock() hands the process's place in the host's queue to the next waiter
--EXTENSIONS--
nativelock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$path = $dir . 'q036.lock';
$holder = nl_file_hold_in_child($dir, 'q036', 6.0);
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () { throw new RuntimeException('stop waiting'); });
$me = getmypid();
$flag = $dir . 'q036-first-queued';
@unlink($flag);
$sender = pcntl_fork();
if ($sender === 0) {
    // We (the first waiter) are the queue's head; then let the second waiter queue behind us,
    // and once it has, end our wait.
    for ($until = microtime(true) + 10; nl_queue_entries($path)['held'] < 1 && microtime(true) < $until;) {
        usleep(10000);
    }
    touch($flag);
    for ($until = microtime(true) + 10; nl_queue_entries($path)['waiting'] < 1 && microtime(true) < $until;) {
        usleep(10000);
    }
    posix_kill($me, SIGUSR1);
    exit(0);
}
$second = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('q036');
    for (\$until = microtime(true) + 10; !file_exists('$flag') && microtime(true) < \$until;) usleep(10000);
    echo \$l->lock(60), \"\\n\"; \$l->unlock();", [], $pipes);
$lock = new Filelock('q036');
try {
    $lock->lock(60);
    echo "lock() returned\n";
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
unlink($flag);
// Our place went to the second waiter: it is the head now (once its thread has run: the
// kernel wakes a waiter, which then takes the byte), and nobody waits behind it.
for ($until = microtime(true) + 10; ($entries = nl_queue_entries($path))['held'] < 1 && microtime(true) < $until;) {
    usleep(5000);
}
echo "head: {$entries['held']}, waiting: {$entries['waiting']}\n";
echo "second waiter: ", trim(nl_read_line($pipes[1], 60)), "\n";
proc_close($second);
pcntl_waitpid($sender, $st);
pcntl_waitpid($holder, $st);
?>
--EXPECT--
RuntimeException: stop waiting
head: 1, waiting: 0
second waiter: 1
