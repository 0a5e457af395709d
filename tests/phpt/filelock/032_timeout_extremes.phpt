--TEST--
Filelock: lock() timeouts at the extremes: NaN and negative are a ValueError, 0 tries once, INF/1e9/PHP_INT_MAX/2^63 wait without limit
--EXTENSIONS--
nativelock
pcntl
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
$lock = new Filelock('extremes');
foreach ([NAN, -1, -0.001, -INF] as $bad) {
    try { $lock->lock($bad); echo "accepted\n"; } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
}
$holder = nl_file_hold_in_child($dir, 'extremes', 0.3);
var_dump($lock->lock(0));
pcntl_waitpid($holder, $st);
foreach (['INF' => INF, '1e9' => 1e9, 'PHP_INT_MAX' => PHP_INT_MAX, '2^63' => 2 ** 63, '1e300' => 1e300] as $label => $timeout) {
    $holder = nl_file_hold_in_child($dir, 'extremes', 0.3);
    $t = microtime(true);
    $status = $lock->lock($timeout);
    $waited = microtime(true) - $t;
    echo $label, ': ', $status, $waited >= 0.1 ? ' after waiting' : " at once ($waited s)", "\n";
    $lock->unlock();
    pcntl_waitpid($holder, $st);
}
?>
--EXPECT--
Filelock::lock(): Argument #1 ($timeout) must be null or a number of seconds >= 0
Filelock::lock(): Argument #1 ($timeout) must be null or a number of seconds >= 0
Filelock::lock(): Argument #1 ($timeout) must be null or a number of seconds >= 0
Filelock::lock(): Argument #1 ($timeout) must be null or a number of seconds >= 0
int(-1)
INF: 1 after waiting
1e9: 1 after waiting
PHP_INT_MAX: 1 after waiting
2^63: 1 after waiting
1e300: 1 after waiting
