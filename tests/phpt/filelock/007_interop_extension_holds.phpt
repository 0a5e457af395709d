--TEST--
Filelock: a lock held by the extension excludes a process running the original PHP class
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
$lib = var_export(realpath(__DIR__ . '/../../lib/original_filelock.inc'), true);
Filelock::$lockpath = $dir;
$lock = new Filelock('shared job');
var_dump($lock->try_lock());
$probe = "require $lib; OriginalFilelock::\$lockpath = '$dir';
    \$l = new OriginalFilelock('shared job'); echo json_encode(\$l->is_locked()), ' ', \$l->try_lock();
    if (\$l->is_locked() && @unserialize(file_get_contents('{$dir}shared_job.lock'))['mypid'] === getmypid()) \$l->unlock();";
[$code, $out] = nl_run($probe, [], false);
echo "original while held: $out\n";
$lock->unlock();
[$code, $out] = nl_run($probe, [], false);
echo "original after release: $out\n";
// The original leaves no temp files behind on either path, and neither do we.
var_dump(array_values(array_diff(scandir($dir), ['.', '..'])));
?>
--EXPECT--
int(1)
original while held: true -1
original after release: false 1
array(0) {
}
