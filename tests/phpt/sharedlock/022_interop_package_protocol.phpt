--TEST--
SharedLock: a process speaking the package's protocol (its exact statements, through PDO) and the extension exclude each other
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
sl_configure();

// The package's statements, verbatim (SharedLock.php of its-mieger/mysql-shared-locks).
function pkg_lock(PDO $c, string $name, int $ttl): bool
{
    try {
        $c->prepare('INSERT INTO `shared_locks` (`name`, `created`, `ttl`, `connection_id`, `lock_acquired`) VALUES (:name, unix_timestamp(), :ttl, connection_id(), false)')
            ->execute([':name' => $name, ':ttl' => $ttl]);
    } catch (PDOException $e) {
        if ($e->getCode() == 23000) {
            return false;
        }
        throw $e;
    }
    $st = $c->prepare('SELECT GET_LOCK(:name, :timeout)');
    $st->execute([':name' => $name, ':timeout' => 0]);
    if ($st->fetchColumn() != 1) {
        return false;
    }
    $st = $c->prepare('UPDATE `shared_locks` SET `lock_acquired` = true WHERE `name` = :name AND `connection_id` = connection_id()');
    $st->execute([':name' => $name]);
    return $st->rowCount() == 1;
}

function pkg_unlock(PDO $c, string $name): bool
{
    $st = $c->prepare('DELETE FROM `shared_locks` WHERE `name` = :name AND `connection_id` = connection_id()');
    $st->execute([':name' => $name]);
    $released = $st->rowCount() == 1;
    do {
        $r = $c->prepare('SELECT RELEASE_LOCK(:name)');
        $r->execute([':name' => $name]);
    } while ($r->fetchColumn() == 1);
    return $released;
}

$pkg = sl_pdo();
$pkg->setAttribute(PDO::ATTR_EMULATE_PREPARES, false);

// The package holds: the extension waits, and gets it as soon as the package releases.
$name = sl_name();
var_dump(pkg_lock($pkg, $name, 60));
try {
    SharedLock::lock($name, 0.3, 60);
} catch (E\SharedLockTimeoutException $e) {
    echo "extension: timeout while the package holds\n";
}
pkg_unlock($pkg, $name);
$h = SharedLock::lock($name, 1, 60);
echo "extension: acquired after the package released\n";

// The extension holds: the package's insert is a duplicate and its GET_LOCK fails.
var_dump(pkg_lock($pkg, $name, 60));
$st = $pkg->prepare('SELECT GET_LOCK(?, 0)');
$st->execute([$name]);
var_dump($st->fetchColumn());
$h->release();
var_dump(pkg_lock($pkg, $name, 60), pkg_unlock($pkg, $name));
var_dump(sl_is_free(sl_pdo(), $name));
?>
--EXPECT--
bool(true)
extension: timeout while the package holds
extension: acquired after the package released
bool(false)
int(0)
bool(true)
bool(true)
bool(true)
