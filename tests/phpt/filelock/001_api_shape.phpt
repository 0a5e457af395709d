--TEST--
Filelock: constants, static $lockpath, methods and parameters as the original declares them
--EXTENSIONS--
nativelock
--FILE--
<?php
var_dump(LOCKFILE_SUCCESS, LOCKFILE_ERROR_ALREADY_LOCKED, LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK);
var_dump(Filelock::$lockpath);
$class = new ReflectionClass('Filelock');
foreach ($class->getMethods() as $m) {
    $params = [];
    foreach ($m->getParameters() as $p) {
        $params[] = ($p->hasType() ? $p->getType() . ' ' : '') . '$' . $p->getName()
            . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : '');
    }
    printf("%s %s(%s)\n", implode(' ', Reflection::getModifierNames($m->getModifiers())), $m->getName(), implode(', ', $params));
}
$p = $class->getProperty('lockpath');
var_dump($p->isStatic(), $p->isPublic());
// Settable like the original's public static.
Filelock::$lockpath = '/var/tmp/';
var_dump(Filelock::$lockpath);
?>
--EXPECT--
int(1)
int(-1)
int(-2)
string(5) "/tmp/"
public __construct(string $name)
public is_locked()
public try_lock()
public lock(?float $timeout = NULL)
public unlock(mixed $force = false)
public bake_data()
public getFencingToken()
bool(true)
bool(true)
string(9) "/var/tmp/"
