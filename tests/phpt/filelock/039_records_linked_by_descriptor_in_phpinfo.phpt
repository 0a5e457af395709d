--TEST--
Filelock: a record is linked by its descriptor where the kernel allows it (Linux 6.10+, or CAP_DAC_READ_SEARCH), and php --ri says how records are linked
--EXTENSIONS--
nativelock
--SKIPIF--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
// Unnamed record files are made on local filesystems with O_TMPFILE only.
$type = trim((string) shell_exec('stat -f -c %T ' . escapeshellarg(nl_lockdir()) . ' 2>/dev/null'));
if (!in_array($type, ['ext2/ext3', 'ext4', 'xfs', 'btrfs', 'tmpfs'], true)) die("skip lock directory on $type");
?>
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = nl_lockdir();
$row = function (): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/Filelock records linked => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '(no row)';
};
// The kernel allows AT_EMPTY_PATH to the opener's own credentials from 6.10, and always to a
// process with CAP_DAC_READ_SEARCH (bit 2 of CapEff) in the initial user namespace.
[$major, $minor] = array_map('intval', explode('.', php_uname('r')));
preg_match('/^CapEff:\s*([0-9a-f]+)/m', (string) file_get_contents('/proc/self/status'), $cap);
$initial_ns = preg_match('/^\s*0\s+0\s+4294967295\s*$/', (string) file_get_contents('/proc/self/uid_map')) === 1;
$allowed = $major > 6 || ($major === 6 && $minor >= 10)
    || ($initial_ns && isset($cap[1]) && (hexdec(substr($cap[1], -1)) & 4));
echo $row(), "\n";
$lock = new Filelock('q039');
var_dump($lock->try_lock());
$lock->unlock();
$now = $row();
if (!$allowed) {
    // Refused: the row must say so (the expected text below is the allowed case's).
    $now = str_starts_with($now, 'through /proc/thread-self/fd') ? 'by descriptor (linkat AT_EMPTY_PATH)' : "unexpected: $now";
}
echo $now, "\n";
?>
--EXPECT--
by descriptor (linkat AT_EMPTY_PATH) where the kernel allows it; no record linked yet in this process
int(1)
by descriptor (linkat AT_EMPTY_PATH)
