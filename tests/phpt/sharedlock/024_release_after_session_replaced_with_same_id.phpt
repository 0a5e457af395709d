--TEST--
SharedLock: release() of a lock whose session was replaced throws, even when the new session has the old connection id
--DESCRIPTION--
After a server restart connection ids start again, so the re-opened session can carry the id of
the dead one and the row still names it. Here the row is rewritten to the new session's id to get
exactly that state without a restart. Ownership is judged by the session generation, not the id.
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--CONFLICTS--
all
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
use ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException;
use ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException;
sl_configure();
$side = sl_pdo();
$name = sl_name();
$handle = SharedLock::lock($name, 0, 600);
$old = (int) sl_row($side, $name)['connection_id'];
$side->exec("KILL $old");
usleep(100000);
try {
    SharedLock::assertTTL($name, 0);  // re-opens the native session
} catch (SharedLockRemainingTTLException $e) {
    echo "lock lost with its session\n";
}
// The re-opened session is the user's only other one, once connections of earlier tests (their
// processes gone, the server still closing them) have left the list.
for ($try = 0; $try < 100; ++$try) {
    $ids = $side->query('SELECT ID FROM information_schema.PROCESSLIST WHERE USER = SUBSTRING_INDEX(CURRENT_USER(), "@", 1) AND ID <> CONNECTION_ID()')->fetchAll(PDO::FETCH_COLUMN);
    if (count($ids) === 1) {
        break;
    }
    usleep(50000);
}
var_dump(count($ids));
$side->prepare('UPDATE shared_locks SET connection_id = ? WHERE name = ?')->execute([$ids[0], $name]);
try {
    $handle->release();
    echo "released\n";
} catch (SharedLockReleaseException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
lock lost with its session
int(1)
ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException: Releasing lock "%s" failed
