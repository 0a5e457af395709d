--TEST--
Filelock: a symlink planted at the lock path is never followed nor written through
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
file_put_contents($dir . 'victim', 'precious');
symlink($dir . 'victim', $dir . 'planted.lock');
$lock = new Filelock('planted');
var_dump($lock->try_lock(), $lock->lock(0.1), $lock->is_locked());
$lock->unlock();
var_dump(file_get_contents($dir . 'victim'), is_link($dir . 'planted.lock'));
// A dangling symlink is not created through either.
unlink($dir . 'planted.lock');
symlink($dir . 'would-be-created', $dir . 'planted.lock');
var_dump($lock->try_lock(), file_exists($dir . 'would-be-created'));
// unlink(true) removes the link itself, never its target.
$lock->unlock(true);
var_dump(is_link($dir . 'planted.lock'), file_get_contents($dir . 'victim'));
?>
--EXPECT--
int(-1)
int(-1)
bool(true)
string(8) "precious"
bool(true)
int(-1)
bool(false)
bool(false)
string(8) "precious"
