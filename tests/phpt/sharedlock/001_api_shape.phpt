--TEST--
SharedLock: classes, namespaces, parents, constants, alias and the exceptions' messages as the package declares them
--EXTENSIONS--
nativelock
--FILE--
<?php
use ItsMieger\MySqlSharedLocks\SharedLock;
use ItsMieger\MySqlSharedLocks\SharedLockHandle;
use ItsMieger\MySqlSharedLocks\Exception as E;

foreach (['SharedLockException', 'SharedLockAcquireException', 'SharedLockTimeoutException',
          'SharedLockReleaseException', 'SharedLockRemainingTTLException', 'TableRepairException'] as $c) {
    $r = new ReflectionClass("ItsMieger\\MySqlSharedLocks\\Exception\\$c");
    echo $c, ' extends ', $r->getParentClass()->getName(), "\n";
}
var_dump(SharedLock::QUOTE_STYLE_DEFAULT, SharedLock::QUOTE_STYLE_ANSI, SharedLock::getTable());
var_dump(new ReflectionClass('SharedLock') == new ReflectionClass(SharedLock::class), class_exists('SharedLock'));
foreach ([SharedLock::class, SharedLockHandle::class] as $class) {
    foreach ((new ReflectionClass($class))->getMethods() as $m) {
        $params = [];
        foreach ($m->getParameters() as $p) {
            $params[] = ($p->hasType() ? $p->getType() . ' ' : '') . '$' . $p->getName()
                . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : '');
        }
        printf("%s %s(%s)\n", implode(' ', Reflection::getModifierNames($m->getModifiers())), $m->getName(), implode(', ', $params));
    }
}
$e = new E\SharedLockException('n');
var_dump($e->getLockName(), $e->getMessage());
echo (new E\SharedLockAcquireException('n'))->getMessage(), "\n";
$t = new E\SharedLockTimeoutException('n', 2.5);
echo $t->getMessage(), ' ', $t->getTimeout(), "\n";
echo (new E\SharedLockReleaseException('n'))->getMessage(), "\n";
$r = new E\SharedLockRemainingTTLException('n', 7, '', 3, $t);
echo $r->getMessage(), ' ', $r->getTTL(), ' ', $r->getCode(), ' ', get_class($r->getPrevious()), "\n";
echo (new E\SharedLockAcquireException('n', 'custom'))->getMessage(), "\n";
var_dump($t instanceof E\SharedLockAcquireException, $r instanceof E\SharedLockException);
// User subclasses keep compiling.
class MyLock extends SharedLock {
    public static function lock($name, $timeout, $ttl) { return parent::lock($name, $timeout, $ttl); }
}
class MyEx extends E\SharedLockTimeoutException {}
echo (new MyEx('x', 1))->getMessage(), "\n";
?>
--EXPECT--
SharedLockException extends Exception
SharedLockAcquireException extends ItsMieger\MySqlSharedLocks\Exception\SharedLockException
SharedLockTimeoutException extends ItsMieger\MySqlSharedLocks\Exception\SharedLockAcquireException
SharedLockReleaseException extends ItsMieger\MySqlSharedLocks\Exception\SharedLockException
SharedLockRemainingTTLException extends ItsMieger\MySqlSharedLocks\Exception\SharedLockException
TableRepairException extends Exception
int(0)
int(1)
string(12) "shared_locks"
bool(true)
bool(true)
public static configureConnection($host, $dbName, $username, $password, $charset = 'utf8mb4', $port = NULL, $additionalDsn = NULL)
public static setConnection(PDO $pdo)
public static setQuoteStyle($quoteStyle)
public static getConnection()
public static getTable()
public static lock($name, $timeout, $ttl)
public static unlock($name)
public static assertTTL($name, $minRemainingTTL = 1)
public static tryRepairTable()
public static releaseAllHeldLocks()
public __construct($lockName)
public release()
public assertTTL($minRemainingTTL = 1)
public setAutoRenew(bool $enabled = true)
public getFencingToken()
string(1) "n"
string(0) ""
Acquiring lock "n" failed
Acquiring lock "n" timed out after 2.5 seconds 2.5
Releasing lock "n" failed
Lock "n" is not to live for 7 seconds anymore 7 3 ItsMieger\MySqlSharedLocks\Exception\SharedLockTimeoutException
custom
bool(true)
bool(true)
Acquiring lock "x" timed out after 1 seconds
