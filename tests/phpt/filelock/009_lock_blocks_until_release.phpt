--TEST--
Filelock: lock() blocks until another process releases, woken by the release (hand-off printed)
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$rounds = 20;
$handoffs = [];
for ($i = 0; $i < $rounds; $i++) {
    // The holder prints the time of its release; we measure until we own the lock.
    $child = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('handoff');
        echo \$l->try_lock(), \"\\n\"; usleep(50000); \$t = hrtime(true); \$l->unlock(); echo \$t, \"\\n\";", [], $pipes);
    if (nl_read_line($pipes[1]) !== '1') { echo "holder did not get the lock\n"; }
    $lock = new Filelock('handoff');
    $r = $lock->lock(10.0);
    $got = hrtime(true);
    $released = (int) nl_read_line($pipes[1]);
    proc_close($child);
    if ($r !== 1) { echo "round $i: lock() returned $r\n"; }
    $handoffs[] = ($got - $released) / 1e6;
    $lock->unlock();
}
sort($handoffs);
printf("hand-off over %d rounds: p50 %.3f ms, max %.3f ms\n", $rounds, $handoffs[intdiv($rounds, 2)], end($handoffs));
// Generous bound: a sleep-polling lock (the original: 100 ms) would fail it on most rounds.
var_dump($handoffs[intdiv($rounds, 2)] < 50.0);
?>
--EXPECTF--
hand-off over 20 rounds: p50 %f ms, max %f ms
bool(true)
