--TEST--
Native API, files: a relative FileBackend directory is made absolute at construction, so a lock's checks and its release find its file after chdir()
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/native.inc';
$base = nl_lockdir();
mkdir($base . 'rel');
chdir($base);
$backend = new Nativelock\FileBackend('rel');
var_dump($backend->getDirectory() === getcwd() . '/rel/');
$lock = new Nativelock\Lock($backend, 'cwd');
var_dump($lock->acquire());
chdir('/');
var_dump(file_exists($base . 'rel/cwd.lock'), $lock->isHeld(), $lock->refresh(1.0));
var_dump($lock->release(), file_exists($base . 'rel/cwd.lock'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
