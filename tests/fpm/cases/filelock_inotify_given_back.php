<?php
// A worker whose request waited for a Filelock gives its inotify instance back at the end of
// that request: instances count against the user's fs.inotify.max_user_instances (128 by
// default), and an idle worker must not keep one.
require __DIR__ . '/../lib.php';

$rows = [];
for ($i = 0; $i < 3; $i++) {
    $rows[] = array_map('intval', explode(' ', trim(strtok(fpm_get('filelock_inotify.php', ['name' => 'fpm-inotify']), "\n"))));
}
$pids = array_unique(array_column($rows, 0));
fpm_check(count($pids) === 1, 'one worker served the 3 requests');
fpm_check(array_column($rows, 2) === [1, 1, 1], 'a waiting head has one inotify instance during its request (' . json_encode(array_column($rows, 2)) . ')');
fpm_check(array_column($rows, 1) === [0, 0, 0], 'none is left at the start of the next request (' . json_encode(array_column($rows, 1)) . ')');
