--TEST--
Filelock: with /dev/shm full the headship table cannot be written: a wait still times out normally, the lock is taken after, and phpinfo() says why (no barging window)
--EXTENSIONS--
nativelock
--SKIPIF--
<?php
// A private mount namespace with a full 16 KB tmpfs on /dev/shm: root and unshare(1) only.
$uid = function_exists('posix_geteuid') ? posix_geteuid() : (int) trim((string) shell_exec('id -u'));
if ($uid !== 0) die('skip needs root (a private mount namespace)');
exec("unshare --mount --propagation private sh -c 'mount -t tmpfs -o size=16k none /dev/shm' 2>/dev/null", $out, $rc);
if ($rc !== 0) die('skip no tmpfs can be mounted on /dev/shm in a private mount namespace here');
?>
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();  // not in /dev/shm, which the child's mount hides
if (str_starts_with($dir, '/dev/shm')) $dir = '/tmp/nl042-' . getmypid() . '/';
@mkdir($dir);
$script = $dir . 'child.php';
file_put_contents($script, '<?php
Filelock::$lockpath = ' . var_export($dir, true) . ';
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
$shell = 'mount -t tmpfs -o size=16k none /dev/shm || exit 1; '
    . 'head -c 16384 /dev/zero > /dev/shm/filler 2>/dev/null; '
    . "exec $php " . escapeshellarg($script);
passthru('unshare --mount --propagation private sh -c ' . escapeshellarg($shell), $rc);
if ($rc !== 0) echo "child exited $rc\n";
unlink($script);
if (str_starts_with($dir, "/tmp/nl042-")) @rmdir($dir);
?>
--EXPECT--
int(1)
int(-1)
int(1)
per host and user, first come first served: no barging window (the headship table could not be written: No space left on device); only the head watches the lock file
