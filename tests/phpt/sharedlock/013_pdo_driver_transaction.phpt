--TEST--
SharedLock: setConnection(PDO) runs the lock on the application's session; after that session is killed its commit fails
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
use ItsMieger\MySqlSharedLocks\Exception as E;
$app = sl_pdo();
SharedLock::setConnection($app);
var_dump(SharedLock::getConnection() === $app);
$name = sl_name();
$app->exec('CREATE TABLE IF NOT EXISTS sl_tx_test (id int) ENGINE=InnoDB');
$app->beginTransaction();
$h = SharedLock::lock($name, 0, 60);
$row = sl_row(sl_pdo(), $name);
var_dump($row['connection_id'] == $app->query('SELECT CONNECTION_ID()')->fetchColumn());
$app->exec('INSERT INTO sl_tx_test VALUES (1)');
// Another process takes over (here: kills the session, as a contender past the TTL does).
sl_pdo()->exec('KILL ' . (int) $row['connection_id']);
usleep(100000);
try {
    $app->commit();
    echo "committed\n";
} catch (PDOException $e) {
    echo "commit failed\n";
}
try {
    $h->release();
} catch (E\SharedLockReleaseException $e) {
    echo get_class($e), ' previous: ', get_class($e->getPrevious()), "\n";
}
// A fresh PDO works again.
$app = sl_pdo();
SharedLock::setConnection($app);
SharedLock::lock($name, 2, 60)->release();
echo "done\n";
?>
--EXPECT--
bool(true)
bool(true)
commit failed
ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException previous: PDOException
done
