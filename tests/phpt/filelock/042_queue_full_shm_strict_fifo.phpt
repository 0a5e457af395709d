--TEST--
Filelock: with /dev/shm full the headship table cannot be written: waits still work, strictly first come first served, and php --ri says why
--EXTENSIONS--
nativelock
--SKIPIF--
<?php
// A private mount namespace with a full 16 KB tmpfs on /dev/shm: root and unshare(1) only.
$uid = function_exists('posix_geteuid') ? posix_geteuid() : (int) trim((string) shell_exec('id -u'));
if ($uid !== 0) die('skip needs root (a private mount namespace)');
exec('unshare --mount true 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip unshare --mount is not allowed here');
?>
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$script = tempnam(sys_get_temp_dir(), 'nl042');
file_put_contents($script, '<?php
Filelock::$lockpath = ' . var_export(nl_lockdir(), true) . ';
$holder = new Filelock("q042");
var_dump($holder->try_lock());
$waiter = new Filelock("q042");
var_dump($waiter->lock(0.2));
$holder->unlock();
var_dump($waiter->lock(1));
$waiter->unlock();
ob_start();
(new ReflectionExtension("nativelock"))->info();
preg_match("/Filelock queue => (.*)/", ob_get_clean(), $m);
echo $m[1] ?? "(no row)", "\n";
');
$php = nl_php();
$shell = 'mount -t tmpfs -o size=16k none /dev/shm && head -c 16384 /dev/zero > /dev/shm/filler 2>/dev/null; '
    . "exec $php " . escapeshellarg($script);
passthru('unshare --mount sh -c ' . escapeshellarg($shell) . ' 2>&1');
unlink($script);
?>
--EXPECT--
int(1)
int(-1)
int(1)
per host and user, first come first served: no barging window (the headship table could not be written: No space left on device); only the head watches the lock file
