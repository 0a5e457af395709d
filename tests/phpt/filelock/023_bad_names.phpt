--TEST--
Filelock: empty and overlong names are rejected with ValueError; odd bytes stay inside $lockpath
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = $dir = nl_lockdir();
foreach (['', str_repeat('a', 1 << 20)] as $name) {
    try {
        new Filelock($name);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo get_class($e), ': ', substr($e->getMessage(), 0, 60), "\n";
    }
}
$ok = new Filelock(str_repeat('b', 200));
var_dump($ok->try_lock());
$ok->unlock();
foreach (["../escape", "/etc/passwd", "%00", "a\0b", "\n", "*"] as $name) {
    $l = new Filelock($name);
    $r = $l->try_lock();
    $l->unlock();
    echo json_encode($name), " => $r\n";
}
var_dump(file_exists(dirname($dir) . '/escape.lock'), array_values(array_diff(scandir($dir), ['.', '..'])));
try {
    new Filelock([]);
} catch (TypeError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$uninitialized = (new ReflectionClass('Filelock'))->newInstanceWithoutConstructor();
try {
    $uninitialized->try_lock();
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
ValueError: lock name must not be empty
ValueError: lock name must be at most 217 bytes long, 1048576 given
int(1)
"..\/escape" => 1
"\/etc\/passwd" => 1
"%00" => 1
"a\u0000b" => 1
"\n" => 1
"*" => 1
bool(false)
array(0) {
}
TypeError: Filelock::__construct(): Argument #1 ($name) must be of type string, array given
Error: Filelock object is not initialized: its constructor was not called
