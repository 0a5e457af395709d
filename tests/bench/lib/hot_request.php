<?php
// One php-fpm request of the hot-lock scenario (tests/bench/hot_lock.php, SPEC §7, issue 14):
// set the backend up as an application does on every request, take ONE shared lock, read-
// increment-write a counter file, release, answer "ok". A lock that cannot be taken answers
// HTTP 500 (wrk counts it as an error).
//
// The driver passes, in the environment of the pool (clear_env = no):
//   NATIVELOCK_HOT_DIR   directory with the counter file ("counter") and the per-worker
//                        request logs (req-<pid>.log), both emptied before each backend's run
// and the backend in the query string (?b=redislock|sharedlock|filelock|sf-redis|sf-flock).
//
// Every request appends one line to its worker's log, after the release (outside the critical
// section, one write): backend, pid, then CLOCK_MONOTONIC ns of script start, lock acquired,
// lock released, and the wall clock at acquisition (µs, to align with Redis MONITOR / MariaDB's
// general log), the counter value this request wrote, and "ok" or the error.
require_once __DIR__ . '/backends.php';

const NLB_HOT_LOCK = 'nlhot';

$t0 = hrtime(true);
$id = (string) ($_GET['b'] ?? '');
$dir = getenv('NATIVELOCK_HOT_DIR');
$tAcq = $tRel = 0;
$wallAcq = 0.0;
$value = -1;
$status = 'ok';
try {
    $b = nlb_backends()[$id] ?? throw new InvalidArgumentException("unknown backend '$id'");
    $b->unavailable();   // loads the PHP code the backend needs (Symfony autoloader)
    $b->setUp();         // per request, as an application does (pooled connections stay pooled)
    // The calls of issue 14's table.
    switch ($id) {
        case 'redislock':
            $h = RedisLock::createAndLock(NLB_HOT_LOCK, 10, RedisLock::FAIL_BLOCK);
            $release = fn() => $h->release();
            break;
        case 'sharedlock':
            $h = \ItsMieger\MySqlSharedLocks\SharedLock::lock(NLB_HOT_LOCK, 10, 30);
            $release = fn() => $h->release();
            break;
        case 'filelock':
            $h = new Filelock(NLB_HOT_LOCK);
            if (($rc = $h->lock(10.0)) !== LOCKFILE_SUCCESS) {
                throw new RuntimeException("Filelock::lock(10.0) returned $rc");
            }
            $release = fn() => $h->unlock();
            break;
        default:   // Symfony stores: createLock(…, 300, false)->acquire(true)
            $h = $b->acquire(NLB_HOT_LOCK);
            $release = fn() => $b->release($h);
    }
    $tAcq = hrtime(true);
    $wallAcq = microtime(true);
    // Deliberately non-atomic: only the lock keeps updates from being lost.
    $value = (int) file_get_contents("$dir/counter") + 1;
    file_put_contents("$dir/counter", (string) $value);
    $release();
    $tRel = hrtime(true);
} catch (Throwable $e) {
    $status = str_replace(["\n", "\t"], ' ', get_class($e) . ': ' . $e->getMessage());
    http_response_code(500);
}
if ($dir) {
    file_put_contents("$dir/req-" . getmypid() . '.log',
        sprintf("%s\t%d\t%d\t%d\t%d\t%.6f\t%d\t%s\n", $id, getmypid(), $t0, $tAcq, $tRel, $wallAcq, $value, $status), FILE_APPEND);
}
echo $status === 'ok' ? 'ok' : "error: $status";
