<?php
// Takes a Filelock and ends the request in the way asked, without unlocking.
$lock = new Filelock($_GET['name']);
$got = $lock->try_lock();
echo getmypid(), ' ', $got, "\n";
while (ob_get_level()) {
    ob_end_flush();
}
flush(); // sent before a fatal error could discard it
switch ($_GET['end'] ?? 'normal') {
    case 'exit':
        exit(0);
    case 'exception':
        throw new RuntimeException('uncaught on purpose');
    case 'fatal':
        ini_set('memory_limit', '8M');
        $GLOBALS['keep'] = $lock;
        $waste = str_repeat('x', 64 * 1024 * 1024);
        break;
    case 'global':
        // Still referenced at the end: only the request-end release can free it.
        $GLOBALS['keep'] = $lock;
        break;
}
