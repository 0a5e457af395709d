<?php
require __DIR__ . '/end_request.inc';
// Takes a SharedLock with the driver asked and ends the request in the way asked, without
// releasing it. Prints: pid, 1 if acquired, the connection id of the lock's session.
use ItsMieger\MySqlSharedLocks\SharedLock;

$env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
$host = $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1');
$port = (int) $env('NATIVELOCK_MYSQL_PORT', '13306');
$user = $env('NATIVELOCK_MYSQL_USER', 'nativelock');
$password = $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock');
$db = $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test');
$name = $_GET['name'];

switch ($_GET['driver'] ?? 'native') {
    case 'pdo':
        ini_set('nativelock.sharedlock_driver', 'pdo');
        SharedLock::configureConnection($host, $db, $user, $password, 'utf8mb4', $port);
        break;
    case 'set':
        SharedLock::setConnection(new PDO("mysql:host=$host;port=$port;dbname=$db", $user, $password));
        break;
    default:
        SharedLock::configureConnection($host, $db, $user, $password, 'utf8mb4', $port);
}
try {
    $lock = SharedLock::lock($name, 2, 60);
    $got = 1;
} catch (Exception $e) {
    $got = get_class($e) . ':' . str_replace(' ', '_', $e->getMessage());
}
$st = SharedLock::getConnection()->prepare('SELECT connection_id FROM shared_locks WHERE name = ?');
$st->execute([$name]);
echo getmypid(), ' ', $got, ' ', (int) $st->fetchColumn(), "\n";
unset($st);
end_request_as_asked($lock ?? null);
