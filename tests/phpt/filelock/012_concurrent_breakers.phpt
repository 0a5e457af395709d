--TEST--
Filelock: N concurrent breakers of one stale lock end with exactly one owner
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
$n = 8;
$trials = 5;
for ($trial = 0; $trial < $trials; $trial++) {
    // A dead owner: a process that exits while holding, with auto-release off.
    nl_run("ini_set('nativelock.auto_release', '0'); Filelock::\$lockpath = '$dir'; \$l = new Filelock('stale'); \$l->try_lock();");
    $record = @unserialize(file_get_contents($dir . 'stale.lock'));
    $procs = [];
    $go = $dir . 'go';
    for ($i = 0; $i < $n; $i++) {
        // Every breaker waits for the same start signal, then tries once and stays alive.
        $procs[] = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('stale');
            while (!file_exists('$go')) usleep(200);
            echo \$l->try_lock(), \"\\n\"; usleep(300000);", [], $p);
        $pipes[] = $p;
    }
    usleep(200000);
    touch($go);
    $results = [];
    foreach ($procs as $i => $proc) {
        $results[] = trim(stream_get_contents($pipes[$i][1]));
        proc_close($proc);
    }
    $pipes = [];
    unlink($go);
    $counts = array_count_values($results);
    printf("trial %d: dead owner recorded=%s, winners=%d, refused=%d\n", $trial,
        is_array($record) ? 'yes' : 'no', $counts['1'] ?? 0, $counts['-1'] ?? 0);
    @unlink($dir . 'stale.lock');
}
?>
--EXPECT--
trial 0: dead owner recorded=yes, winners=1, refused=7
trial 1: dead owner recorded=yes, winners=1, refused=7
trial 2: dead owner recorded=yes, winners=1, refused=7
trial 3: dead owner recorded=yes, winners=1, refused=7
trial 4: dead owner recorded=yes, winners=1, refused=7
