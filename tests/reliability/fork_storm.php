<?php
// Fork storm: a parent holding locks forks children that end in every way a PHP process ends
// (end of script, exit(), a fatal error, memory exhaustion, an uncaught exception, SIGKILL,
// after calling release() or dropping the lock objects themselves). After every child the
// parent must still hold every lock; at the end it releases them and they must be free.
//   php fork_storm.php --backend=file --children=100
//   php fork_storm.php --backend=file,redis,mysql   (one parent holding locks of every kind)
declare(strict_types=1);
require __DIR__ . '/lib/driver.inc';

const ENDINGS = ['end-of-script', 'exit-0', 'exit-3', 'fatal-error', 'memory-limit',
                 'uncaught-exception', 'sigkill', 'release-then-exit', 'drop-objects'];

$opt = rel_options(['backend' => 'file', 'children' => 100, 'locks' => 3, 'test' => 'fork-storm']);
$started = microtime(true);
$tried = "parent holding {$opt['locks']} locks per backend forks {$opt['children']} children ending by " . implode(', ', ENDINGS);

/** The parent's part. Returns the ending a forked child must perform, or null in the parent. */
function parent_main(array $opt, float $started, string $tried, array &$locks): ?string
{
    rel_guard($opt['test'], str_replace(',', '+', $opt['backend']), $tried, $started);
    $backends = [];
    try {
        foreach (explode(',', $opt['backend']) as $name) {
            $backends[$name] = rel_backend($name);
        }
    } catch (BackendUnavailable $e) {
        rel_report($opt['test'], str_replace(',', '+', $opt['backend']), $tried, 0, [], $started, [], $e->getMessage());
        exit(1);
    }
    $failures = [];
    foreach ($backends as $name => $backend) {
        $backend->prepare('fork');
        for ($i = 0; $i < $opt['locks']; $i++) {
            $locks[] = [$backend, $backend->tryAcquire("fork-$i") ?? throw new RuntimeException("$name fork-$i is taken")];
        }
    }
    $endings = [];
    for ($c = 0; $c < $opt['children']; $c++) {
        $ending = ENDINGS[$c % count(ENDINGS)];
        $pid = pcntl_fork();
        if ($pid === 0) {
            $GLOBALS['backends'] = $backends;
            return $ending;
        }
        [$code, $signal] = rel_wait($pid);
        $endings[$ending][] = $signal !== null ? "signal $signal" : "exit $code";
        foreach ($locks as [$backend, $lock]) {
            $what = $backend->name() . " {$lock->name}";
            if (!$backend->stillHeld($lock)) {
                $failures[] = "after child $c ($ending): the parent no longer holds $what";
            } elseif ($backend->tryAcquire($lock->name) !== null) {
                $failures[] = "after child $c ($ending): $what could be taken a second time";
            }
        }
    }
    // The parent's own handles (and connections) still work: release, then the locks are free.
    foreach ($locks as [$backend, $lock]) {
        try {
            $backend->release($lock);
            $again = $backend->tryAcquire($lock->name);
            if ($again === null) {
                $failures[] = "{$lock->name} still taken after the parent released it";
            } else {
                $backend->release($again);
            }
        } catch (Throwable $e) {
            $failures[] = "parent releasing {$lock->name}: " . get_class($e) . ': ' . $e->getMessage();
        }
    }
    $measured = [];
    foreach ($endings as $ending => $outcomes) {
        $measured[$ending] = count($outcomes) . 'x ' . implode('/', array_unique($outcomes));
    }
    // A child that did not end the way it was told did not test that ending.
    foreach (['exit-3' => 'exit 3', 'sigkill' => 'signal 9', 'fatal-error' => 'exit 255', 'memory-limit' => 'exit 255', 'uncaught-exception' => 'exit 255'] as $ending => $want) {
        if (isset($endings[$ending]) && array_unique($endings[$ending]) !== [$want]) {
            $failures[] = "children told to end by $ending ended with " . implode('/', array_unique($endings[$ending])) . ", expected $want";
        }
    }
    foreach ($backends as $backend) {
        $backend->cleanup();
    }
    rel_report($opt['test'], str_replace(',', '+', $opt['backend']), $tried, $opt['children'], $failures, $started, $measured);
    exit($failures ? 1 : 0);
}

$locks = [];
$ending = parent_main($opt, $started, $tried, $locks);

// Only forked children get here. Silence their fatal errors' output: they are expected; and
// let an uncaught exception end the child the way PHP ends it (not through rel_guard()).
restore_exception_handler();
ini_set('display_errors', '0');
ini_set('log_errors', '0');
foreach ($backends as $backend) {
    $backend->afterFork();
}
switch ($ending) {
    case 'exit-0':
        exit(0);
    case 'exit-3':
        exit(3);
    case 'fatal-error':
        trigger_error('child fatal', E_USER_ERROR);
    case 'memory-limit':
        ini_set('memory_limit', '8M');
        $hog = str_repeat('x', 64 << 20);
        exit(0);
    case 'uncaught-exception':
        throw new RuntimeException('child dies');
    case 'sigkill':
        posix_kill(getmypid(), SIGKILL);
    case 'release-then-exit':
        foreach ($locks as [$backend, $lock]) {
            try {
                $backend->release($lock);
            } catch (Throwable $e) {
                // The child does not hold the parent's lock; refusing to release it is fine
                // (SharedLock throws SharedLockReleaseException). What matters is the parent.
            }
        }
        exit(0);
    case 'drop-objects':
        $locks = [];
        gc_collect_cycles();
        exit(0);
    case 'end-of-script':
        break;
}
