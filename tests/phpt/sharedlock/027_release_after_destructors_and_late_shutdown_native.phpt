--TEST--
SharedLock (native driver): request end releases held locks only after destructors and late shutdown functions
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
$name = sl_name();
[$code, $out, $err] = nl_run('require ' . var_export(__DIR__ . '/sharedlock.inc', true) . ';
    use ItsMieger\MySqlSharedLocks\SharedLock;
    $name = ' . var_export($name, true) . ';
    sl_configure();
    class Job { public $name; function __destruct() {
        echo "destructor: ", sl_is_free(sl_pdo(), $this->name) ? "free" : "held", "\n"; } }
    $job = new Job();
    $job->name = $name;
    SharedLock::lock($name, 0, 600);
    register_shutdown_function(function () use ($name) {
        register_shutdown_function(function () use ($name) {
            echo "late shutdown function: ", sl_is_free(sl_pdo(), $name) ? "free" : "held", "\n";
        });
    });
    echo "end of script\n";');
echo $out, $err;
var_dump($code, sl_is_free(sl_pdo(), $name));
?>
--EXPECT--
end of script
late shutdown function: held
destructor: held
int(0)
bool(true)
