<?php
// Over 100 requests to one php-fpm worker, a Filelock taken in a request is free after it,
// however the request ended; and every request was served by the same worker process.
require __DIR__ . '/../lib.php';

$ends = ['normal', 'exit', 'exception', 'fatal', 'global'];
$pids = [];
$notAcquired = [];
$leaked = [];
for ($i = 0; $i < 100; $i++) {
    $end = $ends[$i % count($ends)];
    $out = trim(strtok(fpm_get('filelock_hold.php', ['name' => 'fpm-request-end', 'end' => $end]), "\n"));
    [$pid, $result] = array_pad(explode(' ', $out), 2, '');
    $pids[$pid] = true;
    if ($result !== '1') {
        $notAcquired[] = "$i/$end:'$out'";
    }
    if (file_exists(fpm_lockdir() . 'fpm_request_end.lock')) {
        $leaked[] = "$i/$end";
        @unlink(fpm_lockdir() . 'fpm_request_end.lock');
    }
}
fpm_check(count($pids) === 1, 'one worker served all 100 requests (' . count($pids) . ' pids)');
fpm_check($notAcquired === [], 'every request acquired the lock' . ($notAcquired ? ': ' . implode(', ', array_slice($notAcquired, 0, 5)) : ''));
fpm_check($leaked === [], 'lock free after every request (normal, exit, exception, fatal, global)' . ($leaked ? ': leaked after ' . implode(', ', $leaked) : ''));
