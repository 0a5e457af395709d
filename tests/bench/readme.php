<?php
// Writes the benchmark results into README.md's <!-- section:benchmarks --> block (only there).
//   php readme.php README.md RESULTS.md CHART_PATH
[$self, $readme, $results, $chart] = $argv;
$text = file_get_contents($readme);
$open = '<!-- section:benchmarks -->';
$close = '<!-- /section:benchmarks -->';
$a = strpos($text, $open);
$b = strpos($text, $close);
if ($a === false || $b === false || $b < $a) {
    fwrite(STDERR, "README.md has no benchmarks section\n");
    exit(1);
}
$body = <<<MD
## Benchmarks

One command builds everything, starts its own `redis-server` and `mariadbd` on private ports
(16479/13379, override with `NATIVELOCK_BENCH_REDIS_PORT` / `NATIVELOCK_BENCH_MYSQL_PORT`), runs
every scenario for every backend in one interleaved run, stops the servers and rewrites this
section, `tests/bench/results/results.md` and `tests/bench/results/chart.svg`:

```sh
tests/bench/run.sh            # full run, ~10 minutes
tests/bench/profile.sh        # where one cycle's time goes: syscalls, server work, perf
tests/bench/run.sh --quick    # shorter counts, output in /tmp/nativelock-bench-quick/
tests/bench/run.sh --smoke    # a few seconds, file backends only: checks the harness works
```

Backends: the extension's classes, the raw protocol floors (the same syscalls in C; `SET NX` +
`DEL` through hiredis and phpredis; `GET_LOCK` + `RELEASE_LOCK` through libmariadb and PDO), the
original PHP classes where the repository carries them (`tests/lib/original_*.inc`), and the
Symfony Lock 5.4 stores from Debian's `php-symfony-lock` (FlockStore, SemaphoreStore, RedisStore
with phpredis, PdoStore with pdo_mysql). A class missing from the build shows as "not
available". Not part of CI (`.ci/run`): it is a measurement, not a test.

![benchmark chart](tests/bench/results/chart.svg)

The figures below are the ones the script produced on the date stated.


MD;
$notes = dirname($results) . '/notes.md';   // hand-written reading of the figures, kept across runs
if (is_file($notes)) {
    $body .= trim(file_get_contents($notes)) . "\n\n";
}
$body .= trim(preg_replace('/^### /m', '### ', file_get_contents($results))) . "\n";
$text = substr($text, 0, $a + strlen($open)) . "\n" . $body . substr($text, $b);
file_put_contents($readme, $text);
