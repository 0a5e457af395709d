<?php
// A minimal FastCGI client (responder role, FCGI_KEEP_CONN) for driving php-fpm at full speed:
// cgi-fcgi forks a process per request, which would measure fork+exec rather than the script.

function fcgi_params(array $params): string
{
    $len = fn(int $n) => $n < 128 ? chr($n) : pack('N', $n | 0x80000000);
    $out = '';
    foreach ($params as $k => $v) {
        $out .= $len(strlen($k)) . $len(strlen($v)) . $k . $v;
    }
    return $out;
}

function fcgi_record(int $type, string $content, int $id = 1): string
{
    return pack('CCnnCC', 1, $type, $id, strlen($content), 0, 0) . $content;
}

/** One request on an open keep-alive connection; returns the body (headers stripped). */
function fcgi_request($sock, array $params): string
{
    $req = fcgi_record(1, pack('nC', 1, 1) . str_repeat("\0", 5))   // BEGIN_REQUEST, responder, keep conn
        . fcgi_record(4, fcgi_params($params)) . fcgi_record(4, '') . fcgi_record(5, '');
    fwrite($sock, $req);
    $out = '';
    while (true) {
        $h = fcgi_read($sock, 8);
        $r = unpack('Cversion/Ctype/nid/nlen/Cpad/Creserved', $h);
        $content = $r['len'] ? fcgi_read($sock, $r['len']) : '';
        if ($r['pad']) {
            fcgi_read($sock, $r['pad']);
        }
        if ($r['type'] === 6) {
            $out .= $content;
        } elseif ($r['type'] === 3) {
            break;
        }
    }
    $parts = preg_split("/\r?\n\r?\n/", $out, 2);
    return $parts[1] ?? '';
}

function fcgi_read($sock, int $n): string
{
    $buf = '';
    while (strlen($buf) < $n) {
        $chunk = fread($sock, $n - strlen($buf));
        if ($chunk === false || ($chunk === '' && feof($sock))) {
            throw new RuntimeException('php-fpm closed the connection');
        }
        $buf .= $chunk;
    }
    return $buf;
}

/**
 * $clients processes, each on its own keep-alive connection, send requests for $script for
 * $seconds. Returns ['requests' => total, 'errors' => n, 'seconds' => wall, 'per_client' => [...]].
 * A response other than "ok" counts as an error.
 */
function fcgi_load(string $host, int $port, string $script, int $clients, float $seconds): array
{
    $params = ['SCRIPT_FILENAME' => $script, 'SCRIPT_NAME' => '/' . basename($script),
        'REQUEST_METHOD' => 'GET', 'QUERY_STRING' => '', 'SERVER_PROTOCOL' => 'HTTP/1.1',
        'GATEWAY_INTERFACE' => 'CGI/1.1', 'REMOTE_ADDR' => '127.0.0.1'];
    $start = microtime(true) + 0.2;
    $end = $start + $seconds;
    $kids = [];
    for ($c = 0; $c < $clients; $c++) {
        [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        if ($pid === 0) {
            fclose($a);
            $ok = 0;
            $err = 0;
            $lastErr = '';
            $sock = stream_socket_client("tcp://$host:$port", $errno, $errstr, 5);
            while (microtime(true) < $start) {
                usleep(100);
            }
            while (microtime(true) < $end) {
                try {
                    $body = fcgi_request($sock, $params);
                    if (trim($body) === 'ok') {
                        $ok++;
                    } else {
                        $err++;
                        $lastErr = substr($body, 0, 200);
                    }
                } catch (RuntimeException $e) {
                    $err++;
                    $lastErr = $e->getMessage();
                    $sock = stream_socket_client("tcp://$host:$port", $errno, $errstr, 5);
                }
            }
            fwrite($b, json_encode([$ok, $err, $lastErr]));
            fclose($b);
            exit(0);
        }
        fclose($b);
        $kids[$pid] = $a;
    }
    $per = [];
    $errors = 0;
    $lastErr = '';
    foreach ($kids as $pid => $sock) {
        [$ok, $err, $le] = json_decode(stream_get_contents($sock), true) ?: [0, 1, 'client died'];
        pcntl_waitpid($pid, $status);
        $per[] = $ok;
        $errors += $err;
        $lastErr = $le ?: $lastErr;
    }
    return ['requests' => array_sum($per), 'errors' => $errors, 'last_error' => $lastErr,
        'seconds' => $seconds, 'per_client' => $per];
}
