<?php
// Base of the SharedLock suites: connection set-up per driver, a private PDO to inspect rows
// and KILL sessions, and a fork helper for the multi-process scenarios.

use ItsMieger\MySqlSharedLocks\SharedLock;
use PHPUnit\Framework\TestCase;

abstract class SharedLockTestCase extends TestCase
{
    /** @var PDO|null */
    private static $admin;

    /** Configures SharedLock for the driver under test (called before every test and in children). */
    abstract protected function configure(): void;

    protected static function env(string $name, string $default): string
    {
        $value = getenv($name);
        return $value === false ? $default : $value;
    }

    protected static function params(): array
    {
        return [
            'host' => self::env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'),
            'port' => (int) self::env('NATIVELOCK_MYSQL_PORT', '13306'),
            'user' => self::env('NATIVELOCK_MYSQL_USER', 'nativelock'),
            'password' => self::env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'),
            'db' => self::env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
        ];
    }

    protected static function newPdo(): PDO
    {
        $p = self::params();
        return new PDO("mysql:host={$p['host']};port={$p['port']};dbname={$p['db']}", $p['user'], $p['password'],
            [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    }

    protected function setUp(): void
    {
        $p = self::params();
        $socket = @fsockopen($p['host'], $p['port'], $errno, $errstr, 1.0);
        if (!$socket) {
            $message = "mariadbd not reachable at {$p['host']}:{$p['port']} (start tests/servers/mariadb.sh)";
            if (getenv('CI') === 'true') {
                $this->fail($message);
            }
            $this->markTestSkipped($message);
        }
        fclose($socket);
        ini_restore('nativelock.sharedlock_driver');
        $this->configure();
    }

    protected function admin(): PDO
    {
        if (!self::$admin) {
            self::$admin = self::newPdo();
        }
        return self::$admin;
    }

    protected function resetAdmin(): void
    {
        self::$admin = null;
    }

    protected function lockName(): string
    {
        return uniqid('pu-', true);
    }

    protected function row(string $name)
    {
        $st = $this->admin()->prepare('SELECT *, IS_USED_LOCK(name) AS used FROM shared_locks WHERE name = ?');
        $st->execute([$name]);
        return $st->fetch(PDO::FETCH_ASSOC);
    }

    protected function assertLockFree(string $name): void
    {
        $st = $this->admin()->prepare('SELECT IS_FREE_LOCK(?)');
        $st->execute([$name]);
        $this->assertEquals(1, $st->fetchColumn(), "GET_LOCK of $name is free");
        $this->assertFalse($this->row($name), "no row for $name");
    }

    /** KILLs the session that holds the lock's row. */
    protected function killLockSession(string $name): void
    {
        $row = $this->row($name);
        $this->assertNotFalse($row, 'the lock has a row');
        $this->admin()->exec('KILL ' . (int) $row['connection_id']);
        usleep(100000);
    }

    /**
     * Runs $child in a forked process that reports lines through a socket, while $parent runs
     * here; the child is ended with SIGKILL (no shutdown: a crash) unless it returns 'exit'.
     */
    protected function fork(callable $parent, callable $child): void
    {
        $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        $this->assertNotSame(-1, $pid);
        if ($pid === 0) {
            fclose($pair[0]);
            try {
                $this->configureChild();
                $child($pair[1]);
            } catch (Throwable $e) {
                fwrite($pair[1], 'child error: ' . get_class($e) . ': ' . $e->getMessage() . "\n");
            }
            posix_kill(getmypid(), SIGKILL);
        }
        fclose($pair[1]);
        try {
            $parent($pair[0]);
        } finally {
            posix_kill($pid, SIGKILL);
            pcntl_waitpid($pid, $status);
            fclose($pair[0]);
        }
    }

    /** A forked child opens its own session (never uses the parent's). */
    protected function configureChild(): void
    {
        $this->configure();
    }

    protected function send($socket, string $message): void
    {
        fwrite($socket, $message . "\n");
    }

    protected function expectMessage($socket, string $expected, float $timeout = 10.0): void
    {
        $this->assertSame($expected, nl_read_line($socket, $timeout));
    }

    protected function timed(callable $fn): float
    {
        $t = microtime(true);
        $fn();
        return microtime(true) - $t;
    }
}
