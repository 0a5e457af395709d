--TEST--
Native API, MySQL on an application's PDO: a lock held when the request ends is released through the PDO's driver, with no PHP call (normal end, exit, fatal error, a PDO subclass whose methods throw); a detached one is not
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
use Nativelock\Lock;
$pdo = nv_pdo();
$endings = [
    'normal end' => '',
    'exit' => 'exit(3);',
    'fatal error' => 'function f() { f(); } ini_set("memory_limit", "8M"); f();',
    'PDO subclass that throws' => '$sub->broken = true;',
    'detached' => '$l->detach();',
];
foreach ($endings as $what => $ending) {
    $key = nl_lock_name('pdo-end');
    [$code, $out, $err] = nl_run('require ' . var_export(__DIR__ . '/native.inc', true) . ';
        class BrokenPdo extends PDO {
            public bool $broken = false;
            public function prepare(string $q, array $o = []): PDOStatement|false { if ($this->broken) throw new LogicException("user code ran"); return parent::prepare($q, $o); }
            public function exec(string $q): int|false { if ($this->broken) throw new LogicException("user code ran"); return parent::exec($q); }
            public function quote(string $s, int $t = PDO::PARAM_STR): string|false { if ($this->broken) throw new LogicException("user code ran"); return parent::quote($s, $t); }
        }
        $sub = new BrokenPdo(sprintf("mysql:host=%s;port=%s;dbname=%s", nl_env("NATIVELOCK_MYSQL_HOST", "127.0.0.1"),
            nl_env("NATIVELOCK_MYSQL_PORT", "13306"), nl_env("NATIVELOCK_MYSQL_DATABASE", "nativelock_test")),
            nl_env("NATIVELOCK_MYSQL_USER", "nativelock"), nl_env("NATIVELOCK_MYSQL_PASSWORD", "nativelock"),
            [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $l = new Nativelock\Lock(new Nativelock\MysqlBackend($sub), ' . var_export($key, true) . ');
        var_dump($l->acquire(60.0));
        ' . $ending);
    // Released at request end, the row is gone; a session that merely ended (the process
    // exit) leaves its row behind for the next contender to take over.
    $row = $pdo->query('SELECT COUNT(*) FROM shared_locks WHERE name = ' . $pdo->quote($key))->fetchColumn();
    printf("%s: child said %s, row %s\n", $what, trim($out), $row ? 'left' : 'deleted');
    $probe = new Lock(nv_backend('mysql'), $key);
    var_dump($probe->acquire(60.0, 0.0), $probe->release());
}
?>
--EXPECT--
normal end: child said bool(true), row deleted
bool(true)
bool(true)
exit: child said bool(true), row deleted
bool(true)
bool(true)
fatal error: child said bool(true), row deleted
bool(true)
bool(true)
PDO subclass that throws: child said bool(true), row deleted
bool(true)
bool(true)
detached: child said bool(true), row left
bool(true)
bool(true)
