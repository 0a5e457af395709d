<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Tests;

use PHPUnit\Framework\TestCase;

/**
 * Servers, connections and child processes for the bridge's suites. In CI (CI=true) a server
 * that is not reachable fails the test instead of skipping it.
 */
abstract class BridgeTestCase extends TestCase
{
    /** @var list<array{0: resource, 1: array<int, resource>}> */
    private array $children = [];

    protected static function env(string $name, string $default): string
    {
        $value = getenv($name);

        return false === $value || '' === $value ? $default : $value;
    }

    protected static function redisHost(): string
    {
        return self::env('NATIVELOCK_REDIS_HOST', '127.0.0.1');
    }

    protected static function redisPort(): int
    {
        return (int) self::env('NATIVELOCK_REDIS_PORT', '16379');
    }

    protected static function redisDsn(): string
    {
        return sprintf('redis://%s:%d', self::redisHost(), self::redisPort());
    }

    protected static function phpredis(): \Redis
    {
        $redis = new \Redis();
        $redis->connect(self::redisHost(), self::redisPort(), 2.0);

        return $redis;
    }

    /** Clients that prefix every key, EVAL's included: phpredis OPT_PREFIX, Predis "prefix". */
    public function prefixedClients(): iterable
    {
        yield 'phpredis' => [function (): object {
            $redis = self::phpredis();
            $redis->setOption(\Redis::OPT_PREFIX, 'app:');

            return $redis;
        }];
        yield 'predis' => [fn (): object => new \Predis\Client(['host' => self::redisHost(), 'port' => self::redisPort()], ['prefix' => 'app:'])];
    }

    protected static function mysqlDsn(): string
    {
        return sprintf('mysql:host=%s;port=%d;dbname=%s', self::env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'), (int) self::env('NATIVELOCK_MYSQL_PORT', '13306'), self::env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'));
    }

    protected static function mysqlUser(): string
    {
        return self::env('NATIVELOCK_MYSQL_USER', 'nativelock');
    }

    protected static function mysqlPassword(): string
    {
        return self::env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock');
    }

    protected function requireServer(string $what, string $host, int $port): void
    {
        $socket = @fsockopen($host, $port, $errno, $errstr, 1.0);
        if ($socket) {
            fclose($socket);

            return;
        }
        $message = sprintf('%s not reachable at %s:%d (start tests/servers/%s.sh)', $what, $host, $port, 'redis' === $what ? 'redis' : 'mariadb');
        if ('true' === getenv('CI')) {
            $this->fail($message);
        }
        $this->markTestSkipped($message);
    }

    protected function requireRedis(): void
    {
        $this->requireServer('redis', self::redisHost(), self::redisPort());
    }

    protected function requireMysql(): void
    {
        $this->requireServer('mariadb', self::env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'), (int) self::env('NATIVELOCK_MYSQL_PORT', '13306'));
    }

    protected function requirePcntl(): void
    {
        if (!\function_exists('pcntl_fork')) {
            if ('true' === getenv('CI')) {
                $this->fail('pcntl is needed');
            }
            $this->markTestSkipped('pcntl is needed');
        }
    }

    protected static function uniqueName(string $prefix): string
    {
        return $prefix.'_'.bin2hex(random_bytes(6));
    }

    protected static function lockDir(): string
    {
        $dir = sys_get_temp_dir().'/nativelock-bridge-tests-'.getmypid();
        if (!is_dir($dir)) {
            mkdir($dir, 0777, true);
        }

        return $dir;
    }

    /**
     * Starts a PHP child with the extension (PHP_INI_SCAN_DIR is inherited) and the bridge's autoloading; $code is the body of a
     * PHP file (no "<?php"). The child talks to the parent by lines on stdout; $args are in $argv.
     *
     * @return int the child's index for readLine()/wait()
     */
    protected function startChild(string $code, array $args = []): int
    {
        $file = tempnam(sys_get_temp_dir(), 'nlchild');
        file_put_contents($file, "<?php\ndeclare(strict_types=1);\nrequire ".var_export(__DIR__.'/bootstrap.php', true).";\n".$code);
        $module = getenv('NATIVELOCK_MODULE') ?: \dirname(__DIR__, 2).'/modules/nativelock.so';
        $cmd = array_merge([PHP_BINARY, '-d', 'extension='.$module, '-d', 'display_errors=stderr', '-d', 'error_reporting=-1'], [$file], array_map('strval', $args));
        $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $this->assertIsResource($proc);
        stream_set_blocking($pipes[1], false);
        stream_set_blocking($pipes[2], false);
        $this->children[] = [$proc, $pipes, $file, ''];

        return \count($this->children) - 1;
    }

    /** Reads the child's next stdout line (without the newline); fails after $timeout seconds. */
    protected function readLine(int $child, float $timeout = 10.0): string
    {
        $deadline = microtime(true) + $timeout;
        $pipes = &$this->children[$child][1];
        $buffer = &$this->children[$child][3];
        while (false === ($pos = strpos($buffer, "\n"))) {
            $left = $deadline - microtime(true);
            if ($left <= 0) {
                $this->fail(sprintf('child %d said nothing within %.1f s; stderr: %s', $child, $timeout, stream_get_contents($pipes[2])));
            }
            $read = [$pipes[1]];
            $w = $e = null;
            if (stream_select($read, $w, $e, (int) $left, (int) (($left - (int) $left) * 1e6)) > 0) {
                $chunk = fread($pipes[1], 8192);
                if ('' === $chunk || false === $chunk) {
                    if (feof($pipes[1])) {
                        $this->fail(sprintf('child %d ended without a line; stderr: %s', $child, stream_get_contents($pipes[2])));
                    }
                    continue;
                }
                $buffer .= $chunk;
            }
        }
        $line = substr($buffer, 0, $pos);
        $buffer = substr($buffer, $pos + 1);

        return $line;
    }

    protected function tell(int $child, string $line): void
    {
        fwrite($this->children[$child][1][0], $line."\n");
    }

    /** Waits for the child's exit; returns [exit code, stderr]. */
    protected function waitChild(int $child, float $timeout = 10.0): array
    {
        [$proc, $pipes] = $this->children[$child];
        $deadline = microtime(true) + $timeout;
        $stderr = '';
        do {
            $stderr .= (string) stream_get_contents($pipes[2]);
            $status = proc_get_status($proc);
            if (!$status['running']) {
                $stderr .= (string) stream_get_contents($pipes[2]);

                return [$status['exitcode'], $stderr];
            }
            usleep(2000);
        } while (microtime(true) < $deadline);
        proc_terminate($proc, 9);
        $this->fail(sprintf('child %d did not exit within %.1f s; stderr: %s', $child, $timeout, $stderr));
    }

    protected function tearDown(): void
    {
        foreach ($this->children as [$proc, $pipes, $file]) {
            if (proc_get_status($proc)['running']) {
                proc_terminate($proc, 9);
            }
            foreach ($pipes as $pipe) {
                @fclose($pipe);
            }
            proc_close($proc);
            @unlink($file);
        }
        $this->children = [];
    }

    public static function tearDownAfterClass(): void
    {
        $dir = sys_get_temp_dir().'/nativelock-bridge-tests-'.getmypid();
        if (is_dir($dir)) {
            @rmdir($dir); // only when no lock file was left behind
        }
    }

    /** Forks; the child runs $child and _exit()s with its return code (0 if it returns null/true). */
    protected function fork(callable $child): int
    {
        $this->requirePcntl();
        $pid = pcntl_fork();
        $this->assertNotSame(-1, $pid);
        if (0 === $pid) {
            $code = 1;
            try {
                $r = $child();
                $code = (false === $r) ? 1 : (\is_int($r) ? $r : 0);
            } catch (\Throwable $e) {
                fwrite(STDERR, 'child: '.$e."\n");
            }
            // Run the child's destructors and shutdown like a normal exit would (that is the point
            // of the fork tests), then leave without PHPUnit's own shutdown.
            exit($code);
        }

        return $pid;
    }

    protected function waitPid(int $pid): int
    {
        pcntl_waitpid($pid, $status);

        return pcntl_wexitstatus($status);
    }
}
