--TEST--
SharedLock: QUOTE_STYLE_ANSI quotes identifiers with " for sessions in ANSI_QUOTES mode
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
$app->exec("SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')");
SharedLock::setConnection($app);
SharedLock::setQuoteStyle(SharedLock::QUOTE_STYLE_ANSI);
$name = sl_name();
$h = SharedLock::lock($name, 0, 60);
$h->assertTTL(5);
$h->release();
var_dump(sl_is_free(sl_pdo(), $name));
// The default style on an ANSI_QUOTES session is a syntax error, reported as an acquire failure.
SharedLock::setQuoteStyle(SharedLock::QUOTE_STYLE_DEFAULT);
try {
    $h = SharedLock::lock($name, 0, 60);
    echo "locked\n";
    $h->release();
} catch (E\SharedLockAcquireException $e) {
    echo get_class($e), "\n";
}
?>
--EXPECTF--
bool(true)
%s
