<?php
// Bootstrap of the drop-in suites: the extension must be loaded (never a userland copy), and
// the servers' parameters come from the environment (tests/servers/env.sh).
if (!extension_loaded('nativelock')) {
    fwrite(STDERR, "nativelock is not loaded: run php -d extension=modules/nativelock.so /usr/bin/phpunit …\n");
    exit(1);
}
require_once __DIR__ . '/../lib/nativelock_test.inc';
require_once __DIR__ . '/SharedLockTestCase.php';
