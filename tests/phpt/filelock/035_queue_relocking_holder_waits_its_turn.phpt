--TEST--
Filelock: waiters of one host get the lock in arrival order; a holder that releases and locks again at once queues behind them
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$order = $dir . 'q035-order';
@unlink($order);
$lock = new Filelock('q035');
var_dump($lock->lock(5));
$procs = [];
foreach (['A', 'B', 'C'] as $tag) {
    $procs[] = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('q035');
        echo \"ready\\n\";
        if (\$l->lock(60) === 1) { file_put_contents('$order', '$tag', FILE_APPEND); usleep(20000); \$l->unlock(); }", [], $p);
    $pipes[] = $p;
    nl_read_line($p[1], 60);
    // Queued before the next one starts (a generous moment: the order is the point).
    for ($until = microtime(true) + 10; nl_queue_entries($dir . 'q035.lock')['waiting'] + nl_queue_entries($dir . 'q035.lock')['held'] < count($procs) && microtime(true) < $until;) {
        usleep(10000);
    }
}
for ($i = 0; $i < 3; $i++) {
    $lock->unlock();
    var_dump($lock->lock(60));
    file_put_contents($order, 'H', FILE_APPEND);
}
$lock->unlock();
foreach ($procs as $proc) {
    proc_close($proc);
}
// The first hand-off goes to the waiter at the head. Later ones may go to the holder: a place
// given up is taken by the next waiter's own retry, and a newcomer can come in between (the
// kernel wakes, it does not hand over), which costs a waiter one turn, never its place.
$got = file_get_contents($order);
echo "first: $got[0], waiters in order: ", str_replace('H', '', $got), ", holder: ", substr_count($got, 'H'), "\n";
unlink($order);
?>
--EXPECT--
int(1)
int(1)
int(1)
int(1)
first: A, waiters in order: ABC, holder: 3
