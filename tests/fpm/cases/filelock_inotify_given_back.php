<?php
// A worker whose requests wait for a Filelock keeps its inotify instance from one request to the
// next (closing one takes milliseconds, which under a hot lock delayed every request's end), and
// gives it back at the end of a request once no wait has used it for a second: instances count
// against the user's fs.inotify.max_user_instances (128 by default), and an idle worker must not
// keep one.
require __DIR__ . '/../lib.php';

$get = fn(array $query) => array_map('intval', explode(' ', trim(strtok(fpm_get('filelock_inotify.php', $query + ['name' => 'fpm-inotify']), "\n"))));
$rows = [];
for ($i = 0; $i < 3; $i++) {
    $rows[] = $get([]);
}
usleep(1200 * 1000);
$rows[] = $get(['wait' => '0']);   // unused for over a second: given back at its end
$rows[] = $get(['wait' => '0']);
$pids = array_unique(array_column($rows, 0));
fpm_check(count($pids) === 1, 'one worker served the 5 requests');
fpm_check(array_column($rows, 2) === [1, 1, 1, 1, 0], 'a waiting head has one inotify instance during its request, and the worker keeps it while waits use it (' . json_encode(array_column($rows, 2)) . ')');
fpm_check(array_column($rows, 1) === [0, 1, 1, 1, 0], 'kept from request to request, gone after a request that ended with it unused for a second (' . json_encode(array_column($rows, 1)) . ')');
