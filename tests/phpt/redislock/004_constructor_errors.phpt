--TEST--
RedisLock: constructor validation, messages word for word and in the original's order
--EXTENSIONS--
nativelock
--FILE--
<?php
$cases = [
    ['n', 10, 'nope'],
    ['n', '10', 'nope'],          // fail behaviour is checked first
    ['n', '10', RedisLock::FAIL_EXCEPT],
    ['n', 10.0, RedisLock::FAIL_BLOCK],
    ['n', null, RedisLock::FAIL_RETURN],
    ['n', 10, 42],
];
foreach ($cases as [$name, $timeout, $fail]) {
    try {
        new RedisLock($name, $timeout, $fail);
        echo "ok\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
try {
    RedisLock::createAndLock('n', 5, 'bogus');
} catch (DomainException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
// Valid combinations construct fine without a server.
var_dump(new RedisLock('n', 0, RedisLock::FAIL_BLOCK) instanceof RedisLock);
?>
--EXPECT--
DomainException: Unknown fail behavior: nope
DomainException: Unknown fail behavior: nope
InvalidArgumentException: $timeout must be an integer.
InvalidArgumentException: $timeout must be an integer.
InvalidArgumentException: $timeout must be an integer.
DomainException: Unknown fail behavior: 42
DomainException: Unknown fail behavior: bogus
bool(true)
