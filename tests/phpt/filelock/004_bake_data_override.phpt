--TEST--
Filelock: a subclass overriding bake_data() (untyped, like the original) writes its own record
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
class JobLock extends Filelock {
    public function bake_data() {
        return parent::bake_data() + ['job' => 'nightly-report', 'nested' => [1.5, true, null]];
    }
}
$lock = new JobLock('job');
var_dump($lock->try_lock());
$record = unserialize(file_get_contents($dir . 'job.lock'));
var_dump($record['job'], $record['nested'], $record['mypid'] === getmypid());
// Its owner is still judged alive (the identity keys came from parent::bake_data()).
$other = new Filelock('job');
var_dump($other->is_locked(), $other->try_lock());

class FailingLock extends Filelock {
    public function bake_data() { throw new LogicException('no data'); }
}
$failing = new FailingLock('failing');
try {
    $failing->try_lock();
} catch (LogicException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(file_exists($dir . 'failing.lock'));
?>
--EXPECT--
int(1)
string(14) "nightly-report"
array(3) {
  [0]=>
  float(1.5)
  [1]=>
  bool(true)
  [2]=>
  NULL
}
bool(true)
bool(true)
int(-1)
LogicException: no data
bool(false)
