--TEST--
Filelock: the lock file holds serialize(bake_data()) with the original's keys plus owner identity
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
$lock = new Filelock('record');
var_dump($lock->try_lock());
$record = unserialize(file_get_contents($dir . 'record.lock'));
var_dump(is_array($record));
echo implode(',', array_keys($record)), "\n";
var_dump($record['mypid'] === getmypid(), $record['name'] === 'record');
var_dump((bool) preg_match('/^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/', $record['timestamp']));
var_dump($record['host'] === gethostname());
var_dump($record['boot_id'] === trim(file_get_contents('/proc/sys/kernel/random/boot_id')));
// machine-id(5) is to be kept private: the record carries a hash of it, never the id itself.
$machine = trim(@file_get_contents('/etc/machine-id') ?: (string) @file_get_contents('/var/lib/dbus/machine-id'));
var_dump($record['machine_id'] === ($machine === '' ? '' : substr(hash('sha256', 'nativelock machine-id ' . $machine), 0, 32)));
var_dump(is_int($record['start_time']) && $record['start_time'] > 0, strlen($record['token']));
// bake_data() returns the same shape (a subclass may call parent::bake_data()).
echo implode(',', array_keys($lock->bake_data())), "\n";
$lock->unlock();
var_dump(file_exists($dir . 'record.lock'));
?>
--EXPECT--
int(1)
bool(true)
mypid,timestamp,name,host,boot_id,pidns,start_time,token,machine_id
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(32)
mypid,timestamp,name,host,boot_id,pidns,start_time,token,machine_id
bool(false)
