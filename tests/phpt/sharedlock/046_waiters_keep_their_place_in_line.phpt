--TEST--
SharedLock: waiters get the lock in the order they came, also when each holds it longer than the 0.2 s between two looks at PHP's signals (a wait is one statement, not re-sent slices that rejoin the line at its end)
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
sl_configure();
$name = sl_name('place');
$pdo = sl_pdo();
// How many sessions wait in GET_LOCK for this name: the native driver's waiting statement
// carries the name as a hex literal.
$waiting = function () use ($pdo, $name): int {
    $st = $pdo->prepare("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User lock' AND INFO LIKE ?");
    $st->execute(['%' . bin2hex($name) . '%']);
    return (int) $st->fetchColumn();
};
$h = SharedLock::lock($name, 0, 30);
$children = [];
for ($i = 0; $i < 3; $i++) {
    $children[] = nl_spawn(sl_configure_code() . '
        $h = ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 20, 30);
        echo microtime(true), "\n";
        usleep(400000);
        $h->release();', [], $pipes);
    $outputs[] = $pipes[1];
    $until = microtime(true) + 20;
    while ($waiting() < $i + 1 && microtime(true) < $until) usleep(5000);
    echo "waiter $i waits: ", $waiting() === $i + 1 ? 'yes' : 'no', "\n";
    usleep(100000);
}
usleep(300000);
$h->release();
$order = [];
foreach ($outputs as $i => $out) {
    $order[$i] = (float) nl_read_line($out, 20.0);  // when child $i got the lock
}
foreach ($children as $p) proc_close($p);
asort($order);
echo 'served: ', implode('', array_keys($order)), "\n";
?>
--EXPECT--
waiter 0 waits: yes
waiter 1 waits: yes
waiter 2 waits: yes
served: 012
