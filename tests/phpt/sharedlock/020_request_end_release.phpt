--TEST--
SharedLock: locks still held at request end are released (normal end, exit(), uncaught exception, fatal error) on both drivers
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
$pdo = sl_pdo();
$endings = [
    'end' => '',
    'exit' => 'exit(3);',
    'exception' => 'throw new RuntimeException("boom");',
    'fatal' => 'ini_set("memory_limit", "8M"); $waste = str_repeat("x", 64 * 1024 * 1024);',
];
$setups = [
    'native' => sl_configure_code(),
    'pdo-ini' => 'ini_set("nativelock.sharedlock_driver", "pdo"); ' . sl_configure_code(),
    'setConnection' => 'require ' . var_export(__DIR__ . '/sharedlock.inc', true) . '; ItsMieger\MySqlSharedLocks\SharedLock::setConnection(sl_pdo());',
];
foreach ($setups as $driver => $setup) {
    foreach ($endings as $ending => $code) {
        $name = sl_name();
        // The child sleeps after its request would end if the lock were still held: the test
        // checks the lock is free while the child process is still alive.
        [$rc, $out, $err] = nl_run($setup . '
            register_shutdown_function(function () { usleep(1); });
            $h = ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 600);
            echo "held\n";
            ' . $code);
        $free = sl_is_free($pdo, $name);
        printf("%s/%s: %s %s\n", $driver, $ending, trim($out), $free ? 'free' : 'STILL HELD ' . $err);
    }
}
?>
--EXPECT--
native/end: held free
native/exit: held free
native/exception: held free
native/fatal: held free
pdo-ini/end: held free
pdo-ini/exit: held free
pdo-ini/exception: held free
pdo-ini/fatal: held free
setConnection/end: held free
setConnection/exit: held free
setConnection/exception: held free
setConnection/fatal: held free
