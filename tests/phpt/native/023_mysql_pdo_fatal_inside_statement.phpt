--TEST--
Native API, MySQL on an application's PDO: after a fatal error inside nativelock's statement, shutdown functions still run and can still lock through the PDO; nothing is left held
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
$key = nl_lock_name('pdo-fatal-in');
[$code, $out, $err] = nl_run('require ' . var_export(__DIR__ . '/pdo_hook.inc', true) . ';
    $pdo = nv_hook_pdo();
    $backend = new Nativelock\MysqlBackend($pdo);
    $a = new Nativelock\Lock($backend, ' . var_export($key, true) . ');
    $b = new Nativelock\Lock($backend, ' . var_export($key . '-b', true) . ');
    register_shutdown_function(function () use ($b) {
        echo "shutdown 1: b ", var_export($b->acquire(10.0, 0.0), true), "\n";
    });
    register_shutdown_function(function () { echo "shutdown 2 ran\n"; });
    $pdo->hook = function () use ($pdo) { $pdo->hook = null; trigger_error("fatal inside", E_USER_ERROR); };
    $a->acquire(10.0, 0.0);
    echo "not reached\n";');
echo $out;
echo str_contains($err, 'fatal inside') ? "fatal reported\n" : $err;
$pdo = nv_pdo();
echo "rows left: ", $pdo->query('SELECT COUNT(*) FROM shared_locks WHERE name LIKE ' . $pdo->quote($key . '%'))->fetchColumn(), "\n";
?>
--EXPECT--
shutdown 1: b true
shutdown 2 ran
fatal reported
rows left: 0
