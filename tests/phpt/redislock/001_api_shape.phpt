--TEST--
RedisLock: constants, properties, methods and exceptions as the original declares them
--EXTENSIONS--
nativelock
--FILE--
<?php
var_dump(RedisLock::DEFAULT_TIMEOUT, RedisLock::FAIL_EXCEPT, RedisLock::FAIL_RETURN, RedisLock::FAIL_BLOCK);
var_dump(get_parent_class('RedisLockFailException'), get_parent_class('RedisLockConnectionException'));
$class = new ReflectionClass('RedisLock');
foreach ($class->getMethods() as $m) {
    $params = [];
    foreach ($m->getParameters() as $p) {
        $params[] = ($p->hasType() ? $p->getType() . ' ' : '') . '$' . $p->getName()
            . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : '');
    }
    printf("%s %s(%s)%s\n", implode(' ', Reflection::getModifierNames($m->getModifiers())), $m->getName(),
        implode(', ', $params), $m->hasReturnType() ? ': ' . $m->getReturnType() : '');
}
foreach ($class->getProperties() as $p) {
    printf("%s $%s\n", implode(' ', Reflection::getModifierNames($p->getModifiers())), $p->getName());
}
?>
--EXPECT--
int(20)
string(11) "fail_except"
string(11) "fail_return"
string(10) "fail_block"
string(9) "Exception"
string(22) "RedisLockFailException"
public static setRedis($redis)
protected static ensureRedisIsSet()
public static createAndLock($name, $timeout, $failBehavior = 'fail_except')
public static create($name, $timeout, $failBehavior = 'fail_except')
public __construct($name, $timeout, $failBehavior)
protected key()
public lock()
public release()
public static releaseAllCurrentlyHeldLocks()
public refresh(?int $ttl = NULL): bool
public getRemainingLifetime(): ?float
public isAcquired(): bool
public setAutoRenew(bool $enabled = true): static
public isAutoRenewed(): bool
public getFencingToken(): int
protected static $redis
protected $name
protected $value
protected $failBehavior
protected $timeout
protected $needsRelease
