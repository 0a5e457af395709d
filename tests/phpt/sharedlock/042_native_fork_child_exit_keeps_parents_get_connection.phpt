--TEST--
SharedLock (native driver): a forked child's end does not close the parent's getConnection() PDO; the child gets its own
--DESCRIPTION--
getConnection() on the native driver opens a PDO beside the lock session. A child inherits it;
freeing it at the child's end would send COM_QUIT on the parent's connection. The extension
cuts the child's copy off first, and getConnection() in the child opens the child's own.
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
ini_set('nativelock.sharedlock_driver', 'native');
sl_configure();
$c = SharedLock::getConnection();
$parentId = $c->query('SELECT CONNECTION_ID()')->fetchColumn();
foreach (['exits at once', 'asks getConnection() first'] as $how) {
    $pipe = tmpfile();
    $pid = pcntl_fork();
    if ($pid === 0) {
        if ($how !== 'exits at once') {
            $mine = SharedLock::getConnection();
            fwrite($pipe, $mine->query('SELECT CONNECTION_ID()')->fetchColumn() == $parentId ? 'the parent\'s' : 'its own');
        }
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    rewind($pipe);
    $got = stream_get_contents($pipe);
    echo "child $how", $got !== '' ? " (got $got connection)" : '', ': the parent\'s PDO ';
    try {
        echo $c->query('SELECT 1')->fetchColumn() == 1 ? 'works' : 'fails', "\n";
    } catch (PDOException $e) {
        echo 'fails: ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
child exits at once: the parent's PDO works
child asks getConnection() first (got its own connection): the parent's PDO works
