<?php
// A private php-fpm pool for the benchmark scenarios (bench.php's per-request scenario,
// hot_lock.php's hot lock): pm = static with $workers workers on 127.0.0.1:$port, the fpm SAPI's
// own ini files minus any that load an installed nativelock, the module under test
// (NATIVELOCK_MODULE, else modules/nativelock.so) and opcache on. The environment is passed
// through (clear_env = no), so the workers see NATIVELOCK_BENCH_LOCKDIR, _REDIS_PORT, … .

/**
 * Starts the pool and waits until it listens. $extra: more pool lines ("key = value").
 * Returns ['proc' => …, 'dir' => its private directory, 'pid' => master pid].
 */
function nlb_fpm_start(int $port, int $workers, array $extra = []): array
{
    $bin = trim((string) shell_exec('command -v php-fpm8.2 || command -v php-fpm')) ?: '/usr/sbin/php-fpm8.2';
    $dir = sys_get_temp_dir() . '/nativelock-bench-fpm-' . getmypid() . '-' . $port;
    @mkdir("$dir/conf.d", 0777, true);
    foreach (glob('/etc/php/8.2/fpm/conf.d/*.ini') as $ini) {
        if (!str_contains((string) file_get_contents($ini), 'nativelock')) {
            @symlink($ini, "$dir/conf.d/" . basename($ini));
        }
    }
    $user = posix_getuid() === 0 ? "user = root\ngroup = root\n" : '';
    file_put_contents("$dir/php-fpm.conf", "[global]\npid = $dir/fpm.pid\nerror_log = $dir/fpm.log\ndaemonize = no\n\n"
        . "[bench]\n{$user}listen = 127.0.0.1:$port\nlisten.backlog = 511\npm = static\npm.max_children = $workers\n"
        . "pm.max_requests = 0\nclear_env = no\ncatch_workers_output = yes\n"
        . "php_admin_value[error_log] = $dir/php-errors.log\nphp_admin_flag[log_errors] = on\n"
        . implode("\n", $extra) . "\n");
    $module = getenv('NATIVELOCK_MODULE') ?: realpath(__DIR__ . '/../../../modules/nativelock.so');
    $argv = [$bin, '-y', "$dir/php-fpm.conf", '-d', "extension=$module", '-d', 'opcache.enable=1'];
    if (posix_getuid() === 0) {
        array_splice($argv, 1, 0, ['-R']);
    }
    $env = getenv();
    $env['PHP_INI_SCAN_DIR'] = "$dir/conf.d";
    $proc = proc_open($argv, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/fpm.stdout", 'w'], 2 => ['file', "$dir/fpm.stdout", 'a']], $pipes, null, $env);
    for ($i = 0; $i < 100; $i++) {
        $s = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.1);
        if ($s) {
            fclose($s);
            return ['proc' => $proc, 'dir' => $dir, 'pid' => proc_get_status($proc)['pid']];
        }
        usleep(50000);
    }
    proc_terminate($proc);
    throw new RuntimeException("php-fpm did not start: " . @file_get_contents("$dir/fpm.stdout"));
}

/** The pids of the pool's worker processes (children of the master). */
function nlb_fpm_workers(array $fpm): array
{
    $out = trim((string) shell_exec('pgrep -P ' . (int) $fpm['pid']));
    return $out === '' ? [] : array_map('intval', explode("\n", $out));
}

function nlb_fpm_stop(array $fpm): void
{
    proc_terminate($fpm['proc']);
    proc_close($fpm['proc']);
    $errs = @file_get_contents($fpm['dir'] . '/php-errors.log');
    if ($errs) {
        fwrite(STDERR, "php-fpm errors:\n" . substr($errs, -2000) . "\n");
    }
    shell_exec('rm -rf ' . escapeshellarg($fpm['dir']));
}
