<?php
// Takes a RedisLock and ends the request in the way asked, without releasing it.
RedisLock::setRedis($_GET['uri']);
$lock = RedisLock::createAndLock($_GET['name'], 60, RedisLock::FAIL_RETURN);
echo getmypid(), ' ', $lock ? 1 : 0, "\n";
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
    case 'unstored':
        // A second lock whose object nobody keeps: held until request end, like the original.
        RedisLock::createAndLock($_GET['name'] . '-unstored', 60);
        break;
}
