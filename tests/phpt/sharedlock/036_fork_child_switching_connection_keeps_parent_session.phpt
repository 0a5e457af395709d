--TEST--
SharedLock (PDO driver): a forked child that opens its own connection (setConnection/configureConnection) does not end the parent's lock session
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
foreach (['setConnection()', 'sharedlock_driver=pdo'] as $mode) {
    foreach (['setConnection(new PDO)', 'configureConnection()'] as $switch) {
        if ($mode === 'setConnection()') {
            $pdo = sl_pdo();
            SharedLock::setConnection($pdo);
        } else {
            ini_set('nativelock.sharedlock_driver', 'pdo');
            sl_configure();
        }
        $name = sl_name();
        SharedLock::lock($name, 0, 600);
        $pid = pcntl_fork();
        if ($pid === 0) {
            if ($switch === 'configureConnection()') sl_configure(); else SharedLock::setConnection(sl_pdo());
            SharedLock::lock(sl_name(), 0, 30);  // uses the child's own connection
            exit(0);
        }
        pcntl_waitpid($pid, $status);
        usleep(100000);
        $side = sl_pdo();
        $held = $side->query('SELECT IS_USED_LOCK(' . $side->quote($name) . ')')->fetchColumn();
        echo "$mode, child switched with $switch: parent's lock ", $held ? 'held' : 'LOST', "\n";
        SharedLock::unlock($name);
        unset($pdo);
    }
}
?>
--EXPECT--
setConnection(), child switched with setConnection(new PDO): parent's lock held
setConnection(), child switched with configureConnection(): parent's lock held
sharedlock_driver=pdo, child switched with setConnection(new PDO): parent's lock held
sharedlock_driver=pdo, child switched with configureConnection(): parent's lock held
