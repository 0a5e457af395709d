--TEST--
Filelock: unlock() drops the lock file's own entry from PHP's realpath cache (realpath() stops resolving it) and leaves other entries; a relative lock path empties the cache, as the original's unlink() did
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = realpath(nl_lockdir()) . '/';
Filelock::$lockpath = $dir;
$other = $dir . 'realpath-other.txt';
touch($other);
$file = $dir . 'realpath.lock';

$lock = new Filelock('realpath');
var_dump(realpath($other) === $other);
var_dump($lock->lock());
var_dump(realpath($file) === $file, isset(realpath_cache_get()[$file]));
$lock->unlock();
var_dump(realpath($file), isset(realpath_cache_get()[$file]), isset(realpath_cache_get()[$other]));

// Released by a new construction of a held object: the same.
$lock = new Filelock('realpath');
var_dump($lock->lock(), realpath($file) === $file);
$lock->__construct('realpath-next');
var_dump(realpath($file), isset(realpath_cache_get()[$other]));

// A relative lock path: its key in the cache depends on the cwd, so the whole cache goes.
chdir($dir);
Filelock::$lockpath = './';
$lock = new Filelock('realpath');
var_dump($lock->lock(), realpath($file) === $file);
$lock->unlock();
var_dump(isset(realpath_cache_get()[$file]), isset(realpath_cache_get()[$other]));
unlink($other);
?>
--EXPECT--
bool(true)
int(1)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
int(1)
bool(true)
bool(false)
bool(true)
int(1)
bool(true)
bool(false)
bool(false)
