--TEST--
SharedLock: the native driver honours host/port/dbname/charset/unix_socket in $additionalDsn and rejects anything else (key named, value never shown)
--EXTENSIONS--
nativelock
--FILE--
<?php
use ItsMieger\MySqlSharedLocks\SharedLock;
foreach (['port=3307;unix_socket=/tmp/x.sock', 'charset=utf8;', 'ssl_key=/secret/key.pem', 'port=abc', 'compress'] as $dsn) {
    try {
        SharedLock::configureConnection('127.0.0.1', 'db', 'user', 's3cret', 'utf8mb4', null, $dsn);
        echo "accepted: $dsn\n";
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
ini_set('nativelock.sharedlock_driver', 'pdo');
SharedLock::configureConnection('127.0.0.1', 'db', 'user', 's3cret', 'utf8mb4', null, 'ssl_key=/secret/key.pem');
echo "pdo driver: passed to PDO as it is\n";
?>
--EXPECT--
accepted: port=3307;unix_socket=/tmp/x.sock
accepted: charset=utf8;
ValueError: additionalDsn: "ssl_key" is not supported by the native driver (host, port, dbname, charset, unix_socket are; nativelock.sharedlock_driver=pdo passes the DSN to PDO as it is)
ValueError: additionalDsn: port must be a number from 1 to 65535
ValueError: additionalDsn: "compress" is not a key=value pair
pdo driver: passed to PDO as it is
