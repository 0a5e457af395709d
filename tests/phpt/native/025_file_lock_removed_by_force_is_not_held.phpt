--TEST--
Native API, files: a lock whose file another party removed (Filelock's unlock(true), a force release) is no longer held: isHeld(), refresh() and getRemainingLifetime() ask the filesystem
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\Lock;
$dir = nl_lockdir();
$backend = new Nativelock\FileBackend($dir);
$lock = new Lock($backend, 'forced');
var_dump($lock->acquire(), $lock->isHeld(), $lock->refresh(10.0), $lock->getRemainingLifetime());

// Filelock's forced unlock removes the file whoever holds it.
Filelock::$lockpath = $dir;
$f = new Filelock('forced');
$f->unlock(true);
var_dump(file_exists($dir . 'forced.lock'));
echo "after the forced unlock:\n";
var_dump($lock->isAcquired(), $lock->isHeld(), $lock->refresh(10.0), $lock->getRemainingLifetime());

// Another holder takes it meanwhile: still not ours, and release() leaves its file alone.
$other = new Lock($backend, 'forced');
var_dump($other->acquire(), $lock->isHeld(), $lock->release(), file_exists($dir . 'forced.lock'), $other->isHeld());
var_dump($other->release(), $lock->acquire(), $lock->isHeld(), $lock->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
NULL
bool(false)
after the forced unlock:
bool(true)
bool(false)
bool(false)
float(0)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
