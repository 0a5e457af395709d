--TEST--
Native API, files: the lock file is Filelock's ("<dir>/<name>.lock"); Filelock and FileBackend locks exclude each other
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
$dir = nl_lockdir();
$backend = new Nativelock\FileBackend(rtrim($dir, '/'));
var_dump($backend->getDirectory() === $dir, $backend->getName(), $backend->supportsShared());
$lock = new Lock($backend, 'job a');
var_dump($lock->acquire(), file_exists($dir . 'job_a.lock'));
$record = unserialize(file_get_contents($dir . 'job_a.lock'));
var_dump($record['mypid'] === getmypid(), $record['name'], $record['token'] === $lock->getToken());
Filelock::$lockpath = $dir;
$f = new Filelock('job a');
var_dump($f->try_lock() === LOCKFILE_ERROR_ALREADY_LOCKED, $lock->release(), $f->try_lock() === LOCKFILE_SUCCESS);
var_dump($lock->acquire(null, 0.2));
$f->unlock();
var_dump($lock->acquire(), $lock->release());
try { new Lock($backend, ''); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { new Lock($backend, str_repeat('x', 300)); } catch (ValueError $e) { echo "long name: ValueError\n"; }
$nodir = new Nativelock\FileBackend($dir . 'missing');
try { (new Lock($nodir, 'x'))->acquire(); } catch (Nativelock\LockException $e) { echo "missing dir: LockException\n"; }
?>
--EXPECT--
bool(true)
string(4) "file"
bool(false)
bool(true)
bool(true)
bool(true)
string(5) "job a"
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
Nativelock\Lock::__construct(): Argument #2 ($key) must not be empty
long name: ValueError
missing dir: LockException
