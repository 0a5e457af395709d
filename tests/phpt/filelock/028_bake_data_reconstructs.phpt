--TEST--
Filelock: a bake_data() override that re-runs the constructor does not leave try_lock()/lock() using a freed lock
--DESCRIPTION--
Re-running $this->__construct() replaces the native lock object; try_lock() and lock() look the
lock up again after bake_data() returned (a use-after-free before; run with -m).
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
class Renaming extends Filelock
{
    public $next = 'renamed';
    function bake_data() { $this->__construct($this->next); return ['mypid' => getmypid()]; }
}
$lock = new Renaming('original');
var_dump($lock->try_lock(), file_exists($dir . 'renamed.lock'), file_exists($dir . 'original.lock'));
$lock->unlock();
$lock->next = 'again';
var_dump($lock->lock(1.0), file_exists($dir . 'again.lock'));
$lock->unlock();
var_dump(file_exists($dir . 'again.lock'));
?>
--EXPECT--
int(1)
bool(true)
bool(false)
int(1)
bool(true)
bool(false)
