<?php
// Hostile lock names against one backend: every name of the corpus either works as a lock
// (exclusive, releasable, retakable) or gets exactly the documented error; nothing crashes;
// for Filelock the file is exactly $lockpath . preg_replace('/\W/', '_', $name) . '.lock' and
// no file appears anywhere outside $lockpath.
//   php hostile_names.php --backend=file --random=300 --seed=N
declare(strict_types=1);
require __DIR__ . '/lib/driver.inc';
require __DIR__ . '/lib/hostile_names.inc';

$opt = rel_options(['backend' => 'file', 'random' => 300, 'seed' => 0, 'test' => 'hostile-names']);
$seed = $opt['seed'] ?: random_int(1, PHP_INT_MAX);
$started = microtime(true);
$names = hostile_names($opt['random'], $seed);
$tried = count($names) - $opt['random'] . " hostile names (empty, 1 MiB, NUL, invalid UTF-8, ../, %00, SQL/Lua/RESP metacharacters) + {$opt['random']} random byte strings (seed $seed)";
rel_guard($opt['test'], $opt['backend'], $tried, $started);
$backend = rel_backend_or_report($opt['test'], $opt['backend'], $tried, $started);
$backend->prepare('names');

/**
 * Entries, in the directories a stray file could land in, whose names come from the corpus
 * (other processes create files in /tmp concurrently: only ours count).
 */
function outside_snapshot(): array
{
    $seen = [];
    foreach ([sys_get_temp_dir(), getcwd(), dirname(getcwd()), '/etc', '/'] as $dir) {
        foreach (scandir($dir) ?: [] as $f) {
            if (preg_match('/escape|\.lock|pwned|^passwd.|%|shared_locks/', $f)) {
                $seen["$dir/$f"] = true;
            }
        }
    }
    return $seen;
}
$before = outside_snapshot();
// A lock held through the whole run: a name that injected FLUSHALL, DEL or DROP TABLE into the
// backend would take it away.
$sentinel = $backend->tryAcquire('sentinel') ?? throw new RuntimeException('sentinel is taken');

$failures = [];
$accepted = $rejected = 0;
foreach ($names as $label => $name) {
    $expected = $backend->expectedNameError($name);
    try {
        $held = $backend->tryAcquire($name);
    } catch (Throwable $e) {
        $ok = $expected === '*' ? !($e instanceof TypeError) : ($expected !== null && $e instanceof $expected);
        if (!$ok) {
            $failures[] = "$label: " . get_class($e) . ': ' . substr($e->getMessage(), 0, 100) . ' (expected ' . ($expected ?? 'a lock') . ')';
        }
        $rejected++;
        continue;
    }
    if ($expected !== null && $expected !== '*') {
        $failures[] = "$label: accepted, expected $expected";
    }
    if ($held === null) {
        $failures[] = "$label: reported as taken although nobody holds it";
        continue;
    }
    $accepted++;
    if ($backend instanceof FileBackend) {
        $path = $backend->directory() . preg_replace('/\W/', '_', $name) . '.lock';
        if (!is_file($path)) {
            $failures[] = "$label: no lock file at the mapped path";
        }
    }
    if (!$backend->stillHeld($held)) {
        $failures[] = "$label: the backend does not show the lock as held";
    }
    if (($second = $backend->tryAcquire($name)) !== null) {
        $failures[] = "$label: taken twice";
        $backend->release($second);
    }
    $backend->release($held);
    if (($again = $backend->tryAcquire($name)) === null) {
        $failures[] = "$label: still taken after release";
    } else {
        $backend->release($again);
    }
    if ($backend instanceof FileBackend && ($left = array_diff(scandir($backend->directory()), ['.', '..', 'sentinel.lock']))) {
        $failures[] = "$label: files left in \$lockpath after release: " . json_encode(array_values($left), JSON_INVALID_UTF8_SUBSTITUTE);
        array_map(fn($f) => @unlink($backend->directory() . $f), $left);
    }
}
if (!$backend->stillHeld($sentinel)) {
    $failures[] = 'the sentinel lock held through the run is gone: a name reached the backend as a command';
}
$backend->release($sentinel);
$after = outside_snapshot();
foreach (array_diff_key($after, $before) as $path => $_) {
    $failures[] = "file created outside \$lockpath: $path";
}
if ($backend instanceof FileBackend && ($strays = $backend->sandboxStrays())) {
    $failures[] = 'files escaped $lockpath into its parent: ' . json_encode($strays, JSON_INVALID_UTF8_SUBSTITUTE);
}
if (file_exists('/tmp/nl-pwned')) {
    $failures[] = 'a name was executed by a shell';
}
$backend->cleanup();
rel_report($opt['test'], $opt['backend'], $tried, count($names), $failures, $started,
    ['accepted' => $accepted, 'rejected_as_documented' => $rejected, 'seed' => $seed]);
exit($failures ? 1 : 0);
