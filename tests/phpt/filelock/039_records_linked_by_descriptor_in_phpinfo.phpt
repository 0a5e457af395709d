--TEST--
Filelock: on Linux 6.10+ (or as root) a record is linked by its descriptor, and php --ri says how records are linked
--EXTENSIONS--
nativelock
posix
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
// The kernel allows AT_EMPTY_PATH to the opener's own credentials from 6.10, and to root
// (CAP_DAC_READ_SEARCH) always; elsewhere it refuses, and after a lock the row must say so.
[$major, $minor] = array_map('intval', explode('.', php_uname('r')));
$allowed = $major > 6 || ($major === 6 && $minor >= 10) || posix_geteuid() === 0;
$lock = new Filelock('q039');
var_dump($lock->try_lock());
$lock->unlock();
$now = $row();
if (!$allowed) {
    $now = str_starts_with($now, 'through /proc') ? 'by descriptor (linkat AT_EMPTY_PATH)' : "unexpected: $now";
}
echo $now, "\n";
?>
--EXPECT--
int(1)
by descriptor (linkat AT_EMPTY_PATH)
