--TEST--
SharedLock: bad inputs give clear exceptions (long names, NUL bytes, quote styles, negative timeouts), never truncation or injection
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
$try = function (callable $f) {
    try {
        $r = $f();
        echo "ok\n";
        return $r;
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
};
$try(fn() => SharedLock::lock(str_repeat('n', 65), 0, 10));
$h = $try(fn() => SharedLock::lock(str_repeat('n', 63) . substr(sl_name(), 0, 1), 0, 10));
$h->release();
// 64 characters of UTF-8 are 64 characters, not 128 bytes.
$try(fn() => SharedLock::lock(str_repeat('é', 64), 0, 10)->release());
$nul = "a\0b" . sl_name();
$h = $try(fn() => SharedLock::lock($nul, 0, 10));
$h->release();
$quote = "x'); DELETE FROM shared_locks; -- " . sl_name();
$try(fn() => SharedLock::lock($quote, 0, 10)->release());
$try(fn() => SharedLock::setQuoteStyle(2));
$try(fn() => SharedLock::setQuoteStyle('ansi'));
$try(fn() => SharedLock::setQuoteStyle(SharedLock::QUOTE_STYLE_DEFAULT));
$try(fn() => SharedLock::lock(sl_name(), -1, 10));
$try(fn() => SharedLock::lock(sl_name(), 'soon', 10));
$try(fn() => SharedLock::lock(sl_name(), 0, -5));
$try(fn() => SharedLock::lock([], 0, 10));
?>
--EXPECT--
ItsMieger\MySqlSharedLocks\Exception\SharedLockAcquireException: Lock name "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" is longer than 64 characters (MySQL limit)
ok
ok
ok
ok
InvalidArgumentException: Invalid quote style "2"
InvalidArgumentException: Invalid quote style "ansi"
ok
ValueError: ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #2 ($timeout) must be a number of seconds >= 0
TypeError: ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #2 ($timeout) must be a number of seconds, string given
ValueError: ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #3 ($ttl) must be a number of seconds >= 0
TypeError: ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #1 ($name) must be a string, array given
