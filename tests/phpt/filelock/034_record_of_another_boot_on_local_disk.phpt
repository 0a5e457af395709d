--TEST--
Filelock: on a local filesystem a record of another boot (our host name) written before this boot is from an earlier boot of this machine and is broken
--DESCRIPTION--
Only this kernel writes a local filesystem. On shared filesystems the same record is broken only
when its machine-id is ours too (host names are not unique); the core tests judge that case.
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
$lock = new Filelock('reboot');
$record = $lock->bake_data();
$record['boot_id'] = '00000000-0000-4000-8000-000000000000';
$record['machine_id'] = 'another-machine-with-our-host-name';
file_put_contents($dir . 'reboot.lock', serialize($record));
// Written before this machine booted, as a record of an earlier boot is.
preg_match('/^btime (\d+)$/m', file_get_contents('/proc/stat'), $m);
touch($dir . 'reboot.lock', (int) $m[1] - 60);
var_dump($lock->is_locked(), $lock->try_lock());
$lock->unlock();
?>
--EXPECT--
bool(false)
int(1)
