--TEST--
Filelock: a missing, unwritable or non-directory $lockpath gives LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK, silently
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
file_put_contents($dir . 'afile', 'x');
// root ignores permission bits; /proc/ refuses new files to everyone.
$unwritable = '/proc/';
foreach (['missing' => $dir . 'missing/', 'unwritable' => $unwritable, 'file' => $dir . 'afile/'] as $what => $path) {
    Filelock::$lockpath = $path;
    $lock = new Filelock('x');
    echo "$what: ", $lock->try_lock(), ' ', $lock->lock(0.1), ' ', json_encode($lock->is_locked()), "\n";
    $lock->unlock();
}
echo "no warnings\n";
?>
--EXPECT--
missing: -2 -2 false
unwritable: -2 -2 false
file: -2 -2 false
no warnings
