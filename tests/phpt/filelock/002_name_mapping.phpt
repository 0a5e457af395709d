--TEST--
Filelock: lock file is $lockpath . preg_replace('/\W/', '_', $name) . '.lock', byte for byte
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
$names = ['plain', 'with space', '../../etc/passwd', "nul\0byte", 'café', "\xff\xfe", 'a.b-c:d', 'UPPER_lower_123', '日本語'];
foreach ($names as $name) {
    $expected = $dir . preg_replace('/\W/', '_', $name) . '.lock';
    $lock = new Filelock($name);
    $r = $lock->try_lock();
    $created = array_values(array_diff(scandir($dir), ['.', '..']));
    printf("%-28s %d %s\n", json_encode(bin2hex($name)), $r,
        ($created === [basename($expected)] && file_exists($expected)) ? 'ok' : 'MISMATCH ' . json_encode($created));
    $lock->unlock();
}
// No separator is added: interop with the original beats tidiness.
Filelock::$lockpath = rtrim($dir, '/');
$lock = new Filelock('x');
var_dump($lock->try_lock(), file_exists(rtrim($dir, '/') . 'x.lock'));
$lock->unlock();
?>
--EXPECT--
"706c61696e"                 1 ok
"77697468207370616365"       1 ok
"2e2e2f2e2e2f6574632f706173737764" 1 ok
"6e756c0062797465"           1 ok
"636166c3a9"                 1 ok
"fffe"                       1 ok
"612e622d633a64"             1 ok
"55505045525f6c6f7765725f313233" 1 ok
"e697a5e69cace8aa9e"         1 ok
int(1)
bool(true)
