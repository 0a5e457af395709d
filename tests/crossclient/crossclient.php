<?php
// Filelock across two clients of one shared directory (issue 13): the roles run.sh starts, one
// process each, on the mount ("client") it is given. A client is a FUSE mount (bindfs) of one
// backing directory: a change made through one mount is not seen by inotify on the other, as
// on NFS. "Another host" is a process in its own mount and UTS namespaces with another host
// name, boot_id and machine-id (run.sh bind-mounts them); nothing in the extension knows it is
// being tested.
//
//   php crossclient.php ROLE --dir=MOUNT/ [--name=…] [options]
// Each role prints one JSON line (or plain "held" lines its caller waits for).

$opt = ['name' => 'crossclient'];
foreach (array_slice($argv, 2) as $arg) {
    if (preg_match('/^--([a-z-]+)=(.*)$/s', $arg, $m)) {
        $opt[$m[1]] = $m[2];
    }
}
$role = $argv[1] ?? '';
$dir = $opt['dir'] ?? '';
if ($dir === '' || substr($dir, -1) !== '/') {
    fwrite(STDERR, "--dir=MOUNT/ is required\n");
    exit(2);
}

function out(array $data): void
{
    echo json_encode($data), "\n";
}

switch ($role) {
    // Mutual exclusion: lock, read-increment-write a counter file through this mount, unlock.
    case 'counter':
        Filelock::$lockpath = $dir;
        $lock = new Filelock($opt['name']);
        $counter = $dir . 'counter';
        $n = (int) ($opt['iterations'] ?? 200);
        $overlaps = 0;
        for ($i = 0; $i < $n; $i++) {
            if ($lock->lock(30.0) !== LOCKFILE_SUCCESS) {
                out(['error' => "lock() gave up at iteration $i"]);
                exit(1);
            }
            // A second holder would find the marker; the counter shows lost updates.
            $marker = $dir . 'inside';
            if (file_exists($marker)) {
                $overlaps++;
            }
            touch($marker);
            $value = (int) @file_get_contents($counter);
            usleep(random_int(0, 300));
            file_put_contents($counter, (string) ($value + 1));
            unlink($marker);
            clearstatcache();
            $lock->unlock();
        }
        out(['iterations' => $n, 'overlaps' => $overlaps]);
        break;

    // Holds the lock and says so, then sleeps until killed (or --seconds pass, then unlocks).
    case 'hold':
        Filelock::$lockpath = $dir;
        $lock = new Filelock($opt['name']);
        $status = $lock->try_lock();
        echo $status === LOCKFILE_SUCCESS ? "held\n" : "not held $status\n";
        usleep((int) (1e6 * (float) ($opt['seconds'] ?? 3600)));
        $lock->unlock();
        break;

    // The original PHP class (seed 000) holds the lock through this mount.
    case 'hold-original':
        require __DIR__ . '/../lib/original_filelock.inc';
        OriginalFilelock::$lockpath = $dir;
        $lock = new OriginalFilelock($opt['name']);
        echo $lock->try_lock() === LOCKFILE_SUCCESS ? "held\n" : "not held\n";
        usleep((int) (1e6 * (float) ($opt['seconds'] ?? 1)));
        $lock->unlock();
        echo "released\n";
        break;

    // What this client makes of the lock: is_locked(), one try_lock(), or lock() with a limit.
    case 'probe':
        Filelock::$lockpath = $dir;
        $lock = new Filelock($opt['name']);
        $result = ['is_locked' => $lock->is_locked()];
        $t = microtime(true);
        $usage = getrusage();
        if (isset($opt['wait'])) {
            $result['lock'] = $lock->lock((float) $opt['wait']);
        } else {
            $result['try_lock'] = $lock->try_lock();
        }
        $after = getrusage();
        $result['seconds'] = microtime(true) - $t;
        $result['cpu_seconds'] = ($after['ru_utime.tv_sec'] + $after['ru_stime.tv_sec'] - $usage['ru_utime.tv_sec'] - $usage['ru_stime.tv_sec'])
            + ($after['ru_utime.tv_usec'] + $after['ru_stime.tv_usec'] - $usage['ru_utime.tv_usec'] - $usage['ru_stime.tv_usec']) / 1e6;
        if (($result['lock'] ?? $result['try_lock']) === LOCKFILE_SUCCESS) {
            $lock->unlock();
        }
        out($result);
        break;

    // Hand-off across clients: this process holds through its mount (--dir), a child waits
    // through the other (--other=MOUNT/); per round, release → the child owns it.
    case 'handoff':
        $rounds = (int) ($opt['rounds'] ?? 50);
        $other = $opt['other'];
        $latencies = [];
        $cpu = [];
        for ($r = 0; $r < $rounds; $r++) {
            $name = $opt['name'] . "-$r";
            Filelock::$lockpath = $dir;
            $lock = new Filelock($name);
            $lock->try_lock();
            $pipe = [];
            $child = proc_open([PHP_BINARY, '-d', 'extension=' . getenv('NATIVELOCK_MODULE'), '-r',
                'Filelock::$lockpath = $argv[1]; $l = new Filelock($argv[2]); echo "waiting\n";
                 $u = getrusage(); $s = $l->lock(30.0); $t = microtime(true); $v = getrusage();
                 echo $s, " ", sprintf("%.6f", $t), " ", ($v["ru_utime.tv_sec"] + $v["ru_stime.tv_sec"] - $u["ru_utime.tv_sec"] - $u["ru_stime.tv_sec"]) + ($v["ru_utime.tv_usec"] + $v["ru_stime.tv_usec"] - $u["ru_utime.tv_usec"] - $u["ru_stime.tv_usec"]) / 1e6, "\n";
                 $l->unlock();', $other, $name], [1 => ['pipe', 'w']], $pipe);
            fgets($pipe[1]);
            usleep(random_int(150000, 250000));  // the waiter is well into its adaptive poll
            $released = microtime(true);
            $lock->unlock();
            [$status, $acquired, $cpuSeconds] = explode(' ', trim((string) fgets($pipe[1])));
            proc_close($child);
            if ((int) $status !== LOCKFILE_SUCCESS) {
                out(['error' => "round $r: the waiter got $status"]);
                exit(1);
            }
            $latencies[] = ((float) $acquired - $released) * 1000;
            $cpu[] = (float) $cpuSeconds;
        }
        sort($latencies);
        $pick = fn(float $q) => round($latencies[min(count($latencies) - 1, (int) floor($q * count($latencies)))], 2);
        out(['rounds' => $rounds, 'p50_ms' => $pick(0.5), 'p99_ms' => $pick(0.99), 'max_ms' => round(max($latencies), 2),
             'waiter_cpu_ms_per_wait' => round(array_sum($cpu) / count($cpu) * 1000, 2)]);
        break;

    default:
        fwrite(STDERR, "unknown role '$role'\n");
        exit(2);
}
