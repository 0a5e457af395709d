--TEST--
SharedLock: code running inside a SharedLock statement on the PDO (a PDO subclass, a signal handler) cannot switch the connection under it; the lock call fails with that error, holds nothing, and the connection stays usable
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
class SwitchingPdo extends PDO {
    public static $switch = true;
    #[\ReturnTypeWillChange]
    public function prepare($query, $options = []) {
        if (self::$switch) {
            self::$switch = false;
            SharedLock::setConnection(sl_pdo());
        }
        return parent::prepare($query, $options);
    }
}
$p = sl_params();
$app = new SwitchingPdo("mysql:host={$p['host']};port={$p['port']};dbname={$p['db']}", $p['user'], $p['password'],
    [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
SharedLock::setConnection($app);
$name = sl_name();
try {
    SharedLock::lock($name, 1, 10);
    echo "locked\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(SharedLock::getConnection() === $app);
var_dump(sl_row(sl_pdo(), $name));
$h = SharedLock::lock($name, 1, 10);
var_dump(sl_row(sl_pdo(), $name)['connection_id'] == $app->query('SELECT CONNECTION_ID()')->fetchColumn());
$h->release();
echo "done\n";
?>
--EXPECT--
RuntimeException: the connection cannot be switched by code that runs inside a SharedLock statement on it (a PDO subclass, a signal handler)
bool(true)
bool(false)
bool(true)
done
