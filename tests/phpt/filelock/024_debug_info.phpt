--TEST--
Filelock: var_dump() shows name, filename and i_locked like the original's properties
--EXTENSIONS--
nativelock
--FILE--
<?php
Filelock::$lockpath = sys_get_temp_dir() . '/nltest-debug-' . getmypid() . '-';
$lock = new Filelock('dump me');
$lock->try_lock();
var_dump($lock);
$lock->unlock();
print_r($lock);
echo "\n";
try {
    clone $lock;
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
object(Filelock)#%d (3) {
  ["name"]=>
  string(7) "dump me"
  ["filename"]=>
  string(%d) "%s/nltest-debug-%d-dump_me.lock"
  ["i_locked"]=>
  bool(true)
}
Filelock Object
(
    [name] => dump me
    [filename] => %s/nltest-debug-%d-dump_me.lock
    [i_locked] => 
)

Error: Trying to clone an uncloneable object of class Filelock
