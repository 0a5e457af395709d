--TEST--
Filelock: an object destroyed mid-request releases its lock (auto_release on)
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
function take() { $l = new Filelock('scoped'); return $l->try_lock(); }
var_dump(take(), file_exists($dir . 'scoped.lock'));
$l = new Filelock('scoped');
var_dump($l->try_lock());
unset($l);
var_dump(file_exists($dir . 'scoped.lock'));
?>
--EXPECT--
int(1)
bool(false)
int(1)
bool(false)
