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
    $done = $dir . 'done';
    for ($i = 0; $i < $n; $i++) {
        // Every breaker says it is ready, waits for the same start signal, tries once, and
        // stays alive (holding, if it won) until every result is in: a winner that exited
        // early would free the lock for a late breaker, however slow the machine.
        $procs[] = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('stale');
            echo \"ready\\n\";
            while (!file_exists('$go')) usleep(200);
            echo \$l->try_lock(), \"\\n\";
            while (!file_exists('$done')) usleep(1000);", [], $p);
        $pipes[] = $p;
    }
    foreach ($pipes as $p) {
        nl_read_line($p[1], 60);  // "ready"
    }
    touch($go);
    $results = [];
    foreach ($procs as $i => $proc) {
        $results[] = trim(nl_read_line($pipes[$i][1], 60));
    }
    touch($done);
    foreach ($procs as $proc) {
        proc_close($proc);
    }
    $pipes = [];
    unlink($go);
    unlink($done);
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
