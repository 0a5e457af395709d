--TEST--
Filelock: a held lock outlives its object (function return, unset) until unlock() or request end
--DESCRIPTION--
The original never releases early, and neither do RedisLock and SharedLock (SPEC §2): an object
that goes out of scope while holding keeps its lock; request end releases it.
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
function take() { $l = new Filelock('scoped'); return $l->try_lock(); }
var_dump(take(), file_exists($dir . 'scoped.lock'));
$other = new Filelock('scoped');
var_dump($other->try_lock(), $other->is_locked());

$l = new Filelock('unset');
var_dump($l->try_lock());
unset($l);
var_dump(file_exists($dir . 'unset.lock'));

// Request end releases both: checked after a child doing the same has exited.
[$code, $out] = nl_run(sprintf('Filelock::$lockpath = %s;
    function take() { $l = new Filelock("child"); return $l->try_lock(); }
    echo take(), file_exists(%s) ? " held" : " free", "\n";', var_export($dir, true),
    var_export($dir . 'child.lock', true)));
var_dump($code, $out, file_exists($dir . 'child.lock'));
?>
--EXPECT--
int(1)
bool(true)
int(-1)
bool(true)
int(1)
bool(true)
int(0)
string(7) "1 held
"
bool(false)
