<?php
// Helpers for tests/fpm/cases/*.php (run with the CLI by tests/fpm/run.sh).

/** Sends one FastCGI request for tests/fpm/www/$script to the single php-fpm worker. */
function fpm_get(string $script, array $query = []): string
{
    $file = getenv('NATIVELOCK_FPM_WWW') . '/' . $script;
    $env = [
        'SCRIPT_FILENAME' => $file,
        'SCRIPT_NAME' => '/' . $script,
        'REQUEST_METHOD' => 'GET',
        'QUERY_STRING' => http_build_query($query),
    ];
    $cmd = 'cgi-fcgi -bind -connect 127.0.0.1:' . getenv('NATIVELOCK_FPM_PORT');
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env + getenv());
    $out = stream_get_contents($pipes[1]);
    stream_get_contents($pipes[2]);
    proc_close($proc);
    // Drop the CGI headers.
    $parts = preg_split("/\r?\n\r?\n/", $out, 2);
    return $parts[1] ?? '';
}

/** Prints one TAP-like result line. */
function fpm_check(bool $ok, string $description): void
{
    echo ($ok ? 'ok' : 'not ok'), ' - ', $description, "\n";
}

/** The directory php-fpm's nativelock.lockpath points at (private to this run). */
function fpm_lockdir(): string
{
    return getenv('NATIVELOCK_FPM_DIR') . '/';
}
