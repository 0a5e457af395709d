<?php
// Child processes of the benchmark (started by tests/bench/bench.php with the same PHP and
// module):
//   worker.php holder  BACKEND NAME            hand-off holder: on each "go" line acquires,
//                                               says "held", waits 5 ms, prints hrtime, releases
//   worker.php contend BACKEND NAME COUNTER START SECONDS
//                                               from START (unix time) for SECONDS: acquire,
//                                               read-increment-write COUNTER, release; prints JSON
//   worker.php memory  BACKEND COUNT MODE       MODE = cycle | create: RSS before/after COUNT
//                                               create+acquire+release (or create-only); JSON
require __DIR__ . '/backends.php';

[$self, $mode, $id] = $argv + [null, null, null];
$b = nlb_backend($id);

switch ($mode) {
    case 'holder':
        $name = $argv[3];
        while (($line = fgets(STDIN)) !== false) {
            while (($h = $b->tryAcquire($name)) === null) {
                usleep(200);
            }
            echo "held\n";
            usleep(5000);                 // the waiter is blocked by now
            $t = hrtime(true);
            $b->release($h);
            echo $t, "\n";
        }
        break;

    case 'contend':
        [, , , $name, $counter, $start, $seconds] = $argv;
        $end = (float) $start + (float) $seconds;
        while (microtime(true) < (float) $start) {
            usleep(200);
        }
        $count = 0;
        $maxWait = 0;
        while (microtime(true) < $end) {
            $t = hrtime(true);
            $h = $b->acquire($name);
            $maxWait = max($maxWait, hrtime(true) - $t);
            // Deliberately non-atomic: only the lock keeps updates from being lost.
            $v = (int) file_get_contents($counter);
            file_put_contents($counter, (string) ($v + 1));
            $b->release($h);
            $count++;
        }
        echo json_encode(['count' => $count, 'max_wait_ms' => $maxWait / 1e6]), "\n";
        break;

    case 'memory':
        $count = (int) $argv[3];
        $create = ($argv[4] ?? 'cycle') === 'create';
        $one = function (int $i) use ($b, $create) {
            $name = 'mem' . $i;
            if ($create) {
                $b->create($name);
                return;
            }
            $h = $b->tryAcquire($name);
            if ($h === null) {
                throw new RuntimeException('uncontended acquire failed');
            }
            $b->release($h);
            unset($h);
        };
        for ($i = 0; $i < 1000; $i++) {
            $one($i);            // warm-up: connections, caches, allocator arenas
        }
        gc_collect_cycles();
        $rss0 = nlb_rss_kb();
        $mem0 = memory_get_usage();
        $t = hrtime(true);
        for ($i = 1000; $i < 1000 + $count; $i++) {
            $one($i);
        }
        $secs = (hrtime(true) - $t) / 1e9;
        gc_collect_cycles();
        echo json_encode(['count' => $count, 'rss_before_kb' => $rss0, 'rss_after_kb' => nlb_rss_kb(),
            'php_before' => $mem0, 'php_after' => memory_get_usage(), 'seconds' => $secs]), "\n";
        break;

    default:
        fwrite(STDERR, "usage: worker.php holder|contend|memory BACKEND ...\n");
        exit(2);
}
