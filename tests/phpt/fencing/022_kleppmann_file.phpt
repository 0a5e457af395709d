--TEST--
Fencing, files: Kleppmann's scenario: a frozen holder's Filelock is never broken (it is alive), so B forces it (unlock(true), the operator's decision) and takes it with a greater token; A's late write is refused
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
posix
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.fencing=1
--FILE--
<?php
require __DIR__ . '/fencing.inc';
$dir = nl_lockdir();
$name = 'kleppmann';
fx_kleppmann('
    Filelock::$lockpath = ' . var_export($dir, true) . ';
    $lock = new Filelock(' . var_export($name, true) . ');
    $lock->lock();
    $token = $lock->getFencingToken();
', function () use ($dir, $name) {
    Filelock::$lockpath = $dir;
    $b = new Filelock($name);
    echo "B cannot take a frozen (live) holder's lock: ", var_export($b->lock(0.5) === LOCKFILE_ERROR_ALREADY_LOCKED, true), "\n";
    $b->unlock(true);
    echo "B forces it and locks: ", $b->lock(5.0), "\n";
    return [$b->getFencingToken(), fn() => $b->unlock()];
});
?>
--EXPECT--
A holds, token >= 1: true; A frozen
B cannot take a frozen (live) holder's lock: true
B forces it and locks: 1
B holds, tB > tA: true
B writes, rows changed: 1
A resumes and writes with tA, rows changed: 0
resource: value B, fence is tB: true
