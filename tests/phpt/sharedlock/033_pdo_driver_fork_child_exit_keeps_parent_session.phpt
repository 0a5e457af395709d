--TEST--
SharedLock (PDO driver): a forked child that exits normally does not end the parent's lock session (no COM_QUIT on the shared socket)
--DESCRIPTION--
The child inherits the lock session's PDO; destroying it would send COM_QUIT on the socket it
shares with the parent. At the child's request end the extension points the child's copy of
that descriptor at /dev/null first. Checked with setConnection() and sharedlock_driver=pdo, for a
child that exits normally and one killed.
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
foreach (['setConnection()', 'sharedlock_driver=pdo'] as $mode) {
    foreach (['exit(0)' => false, 'SIGKILL' => true] as $label => $kill) {
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
            if ($kill) sleep(30);  // killed by the parent (not by itself: valgrind would report)
            exit(0);
        }
        if ($kill) {
            usleep(100000);
            posix_kill($pid, SIGKILL);
        }
        pcntl_waitpid($pid, $status);
        usleep(100000);
        $side = sl_pdo();  // opened after the fork
        $held = $side->query('SELECT IS_USED_LOCK(' . $side->quote($name) . ')')->fetchColumn();
        echo "$mode, child ended by $label: parent's session ", $held ? 'alive, lock held' : 'ended', "\n";
        SharedLock::unlock($name);
        unset($pdo);
    }
}
?>
--EXPECT--
setConnection(), child ended by exit(0): parent's session alive, lock held
setConnection(), child ended by SIGKILL: parent's session alive, lock held
sharedlock_driver=pdo, child ended by exit(0): parent's session alive, lock held
sharedlock_driver=pdo, child ended by SIGKILL: parent's session alive, lock held
