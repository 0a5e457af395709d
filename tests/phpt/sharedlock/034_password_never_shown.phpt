--TEST--
SharedLock: the configured password never appears in exception messages, traces, or module info
--EXTENSIONS--
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
$secret = 'pw-' . bin2hex(random_bytes(6));
$p = sl_params();
$seen = '';
foreach ([[$p['host'], $p['port']], ['127.0.0.1', 1]] as [$host, $port]) {  // wrong password; nothing listening
    SharedLock::configureConnection($host, $p['db'], $p['user'], $secret, 'utf8mb4', $port);
    try {
        SharedLock::lock(sl_name(), 0, 10);
    } catch (Exception $e) {
        for ($x = $e; $x; $x = $x->getPrevious()) {
            $seen .= get_class($x) . ': ' . $x->getMessage() . "\n" . $x->getTraceAsString() . "\n";
        }
    }
}
ob_start();
phpinfo(INFO_MODULES);
$seen .= ob_get_clean();
// A trace with arguments (zend.exception_ignore_args off) shows SensitiveParameterValue.
ini_set('zend.exception_ignore_args', '0');
try {
    (function () use ($secret) {
        SharedLock::configureConnection('127.0.0.1', 'db', 'user', $secret, 'utf8mb4', null, 'bad key');
    })();
} catch (ValueError $e) {
    $seen .= $e->getTraceAsString() . print_r($e->getTrace(), true);
    echo str_contains($e->getTraceAsString(), 'SensitiveParameterValue') ? "password argument hidden\n" : "no hiding\n";
}
echo $seen === '' ? "no exception\n" : "exceptions seen\n";
var_dump(str_contains($seen, $secret));
?>
--EXPECT--
password argument hidden
exceptions seen
bool(false)
