<?php
// The stack of the hot-lock scenario (issue 14, SPEC §7): nginx → php-fpm (pm = static) →
// lib/hot_request.php, loaded by wrk. Used by tests/bench/hot_lock.php (the table) and
// tests/bench/hot_trace.php (the trace of who wins each hand-off).
require_once __DIR__ . '/backends.php';
require_once __DIR__ . '/fpm_pool.php';

function nlb_hot_say(string $s): void
{
    fwrite(STDERR, '[' . date('H:i:s') . "] $s\n");
}

/**
 * Starts php-fpm ($workers static workers) and nginx in front of it. $dir is this run's
 * private directory (request logs, counter, nginx's files). Returns the stack for the other
 * calls.
 */
function nlb_hot_start(string $dir, int $workers, int $httpPort, int $fpmPort): array
{
    foreach (['nginx' => 'nginx', 'wrk' => 'wrk'] as $bin) {
        if (trim((string) shell_exec('command -v ' . escapeshellarg($bin) . ' || test -x /usr/sbin/' . $bin . ' && echo /usr/sbin/' . $bin)) === '') {
            throw new RuntimeException("$bin not installed (apt-get install -y nginx-light wrk)");
        }
    }
    @mkdir("$dir/www", 0777, true);
    @mkdir("$dir/nginx", 0777, true);
    @mkdir("$dir/data", 0777, true);
    file_put_contents("$dir/www/hot.php", "<?php\nrequire " . var_export(__DIR__ . '/hot_request.php', true) . ";\n");
    putenv("NATIVELOCK_HOT_DIR=$dir/data");
    $fpm = nlb_fpm_start($fpmPort, $workers, ['pm.status_path = /fpm-status']);

    $nginx = trim((string) shell_exec('command -v nginx')) ?: '/usr/sbin/nginx';
    $user = posix_getuid() === 0 ? 'user root root;' : '';
    $n = "$dir/nginx";
    // One nginx worker: with 2 cores, php-fpm and wrk need the rest. A new upstream connection
    // per request (no fastcgi keep-alive): a kept-alive connection would pin a php-fpm worker.
    file_put_contents("$n/nginx.conf", <<<CONF
        $user
        worker_processes 1;
        daemon off;
        pid $n/nginx.pid;
        error_log $n/error.log warn;
        events { worker_connections 1024; }
        http {
            access_log off;
            client_body_temp_path $n/body;
            proxy_temp_path $n/proxy;
            fastcgi_temp_path $n/fastcgi;
            uwsgi_temp_path $n/uwsgi;
            scgi_temp_path $n/scgi;
            keepalive_requests 1000000;
            server {
                listen 127.0.0.1:$httpPort backlog=511;
                root $dir/www;
                location = /fpm-status {
                    include /etc/nginx/fastcgi_params;
                    fastcgi_param SCRIPT_FILENAME \$document_root/fpm-status;
                    fastcgi_param SCRIPT_NAME /fpm-status;
                    fastcgi_pass 127.0.0.1:$fpmPort;
                }
                location ~ \.php$ {
                    include /etc/nginx/fastcgi_params;
                    fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
                    fastcgi_pass 127.0.0.1:$fpmPort;
                    fastcgi_read_timeout 60s;
                }
            }
        }
        CONF);
    $proc = proc_open([$nginx, '-c', "$n/nginx.conf", '-p', $n], [0 => ['file', '/dev/null', 'r'],
        1 => ['file', "$n/stdout", 'w'], 2 => ['file', "$n/stdout", 'a']], $pipes);
    for ($i = 0; $i < 100; $i++) {
        $s = @fsockopen('127.0.0.1', $httpPort, $errno, $errstr, 0.1);
        if ($s) {
            fclose($s);
            return ['dir' => $dir, 'fpm' => $fpm, 'nginx' => $proc, 'port' => $httpPort, 'workers' => $workers];
        }
        usleep(50000);
    }
    proc_terminate($proc);
    nlb_fpm_stop($fpm);
    throw new RuntimeException('nginx did not start: ' . @file_get_contents("$n/stdout") . @file_get_contents("$n/error.log"));
}

function nlb_hot_stop(array $stack): void
{
    nlb_hot_settle($stack);
    proc_terminate($stack['nginx']);
    proc_close($stack['nginx']);
    nlb_fpm_stop($stack['fpm']);
}

/**
 * Waits until no php-fpm worker is busy but the one answering (requests still waiting for the
 * lock when wrk stopped finish or time out), at most $max seconds. Returns the seconds waited.
 */
function nlb_hot_settle(array $stack, float $max = 15.0): float
{
    $t = microtime(true);
    do {
        // Needs a free worker itself: a short timeout, then ask again.
        $s = @file_get_contents("http://127.0.0.1:{$stack['port']}/fpm-status", false,
            stream_context_create(['http' => ['timeout' => 1.0]]));
        if ($s !== false && preg_match('/^active processes:\s+(\d+)/m', $s, $m) && (int) $m[1] <= 1) {
            break;
        }
        usleep(100000);
    } while (microtime(true) - $t < $max);
    return microtime(true) - $t;
}

/**
 * Empties the counter and the request logs before a backend's run, and removes what a run
 * before may have left of the hot lock (a SharedLock row of a worker stopped while it waited
 * stays until its TTL).
 */
function nlb_hot_reset(array $stack): void
{
    nlb_hot_settle($stack);
    try {
        if (extension_loaded('pdo_mysql') && nlb_server_down('mariadbd', nlb_mysql()['host'], nlb_mysql()['port']) === null) {
            nlb_pdo()->exec("DELETE FROM shared_locks WHERE name = 'nlhot' AND IFNULL(IS_USED_LOCK('nlhot'), 0) = 0");
        }
    } catch (PDOException $e) {
        // no table yet: nothing left over
    }
    $d = $stack['dir'] . '/data';
    foreach (glob("$d/req-*.log") as $f) {
        unlink($f);
    }
    file_put_contents("$d/counter", '0');
}

/**
 * wrk -c$clients for $seconds against backend $id. Returns wrk's figures (latency in µs) plus
 * 'raw' (its output).
 */
function nlb_hot_wrk(array $stack, string $id, int $clients, float $seconds): array
{
    $cmd = sprintf('wrk -t2 -c%d -d%ds --timeout 30s -s %s %s 2>&1', $clients, max(1, (int) round($seconds)),
        escapeshellarg(__DIR__ . '/hot_wrk.lua'), escapeshellarg("http://127.0.0.1:{$stack['port']}/hot.php?b=$id"));
    $raw = (string) shell_exec($cmd);
    if (!preg_match('/^NLB_JSON (\{.*\})$/m', $raw, $m) || !is_array($j = json_decode($m[1], true))) {
        throw new RuntimeException("wrk gave no result: $raw");
    }
    $j['raw'] = $raw;
    $j['rps'] = $j['duration_us'] > 0 ? $j['requests'] / ($j['duration_us'] / 1e6) : 0;
    return $j;
}

/**
 * The request logs of the last run (lib/hot_request.php), one array per request in order of
 * acquisition, and the counter's final value.
 */
function nlb_hot_requests(array $stack): array
{
    $rows = [];
    foreach (glob($stack['dir'] . '/data/req-*.log') as $f) {
        foreach (file($f, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
            $c = explode("\t", $line, 8);
            if (count($c) < 8) {
                continue;
            }
            $rows[] = ['b' => $c[0], 'pid' => (int) $c[1], 't0' => (int) $c[2], 'acq' => (int) $c[3], 'rel' => (int) $c[4],
                'wall' => (float) $c[5], 'value' => (int) $c[6], 'status' => $c[7]];
        }
    }
    usort($rows, fn($a, $b) => [$a['acq'], $a['t0']] <=> [$b['acq'], $b['t0']]);
    return [$rows, (int) @file_get_contents($stack['dir'] . '/data/counter')];
}
