<?php
// User code that PHP runs after nativelock's request shutdown took its locks back: a session
// save handler's write() or close(), or a user stream wrapper's stream_close() for a stream
// left open, run when the resource list is closed. Each takes a lock of every kind and keeps
// it; what it acquired goes to the file ?report=. Prints the pid.
use ItsMieger\MySqlSharedLocks\SharedLock;

function take_every_lock(array $q): void
{
    $env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
    $name = $q['name'];
    $got = [];
    $try = function (string $what, callable $take) use (&$got) {
        try {
            if ($held = $take()) {
                $GLOBALS['held'][] = $held;
                $got[] = $what;
            }
        } catch (Throwable $e) {
            $got[] = "$what: " . get_class($e) . ': ' . $e->getMessage();
        }
    };
    $try('shared', function () use ($q, $env, $name) {
        $host = $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1');
        $port = (int) $env('NATIVELOCK_MYSQL_PORT', '13306');
        $db = $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test');
        $user = $env('NATIVELOCK_MYSQL_USER', 'nativelock');
        $password = $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock');
        if ($q['driver'] === 'persistent') {
            SharedLock::setConnection(new PDO("mysql:host=$host;port=$port;dbname=$db", $user, $password,
                [PDO::ATTR_PERSISTENT => true]));
        } else {
            ini_set('nativelock.sharedlock_driver', $q['driver']);
            SharedLock::configureConnection($host, $db, $user, $password, 'utf8mb4', $port);
        }
        return SharedLock::lock($name, 2, 60);
    });
    $try('file', function () use ($name) {
        $file = new Filelock($name);
        return $file->lock(2.0) === LOCKFILE_SUCCESS ? $file : null;
    });
    $try('redis', function () use ($q, $name) {
        RedisLock::setRedis($q['uri']);
        return RedisLock::createAndLock($name, 60, RedisLock::FAIL_RETURN);
    });
    $try('native-redis', function () use ($q, $name) {
        $lock = new Nativelock\Lock(new Nativelock\RedisBackend($q['uri']), $name . '-native');
        return $lock->acquire(60) ? $lock : null;
    });
    $try('native-file', function () use ($q, $name) {
        $lock = new Nativelock\Lock(new Nativelock\FileBackend($q['dir']), $name . '-native');
        return $lock->acquire(60) ? $lock : null;
    });
    file_put_contents($q['report'], implode(',', $got));
}

final class LockingSaveHandler implements SessionHandlerInterface
{
    public function __construct(private array $q) {}
    public function open(string $path, string $name): bool { return true; }
    public function read(string $id): string|false { return ''; }
    public function destroy(string $id): bool { return true; }
    public function gc(int $max): int|false { return 0; }
    public function write(string $id, string $data): bool
    {
        if ($this->q['via'] === 'write') {
            take_every_lock($this->q);
        }
        return true;
    }
    public function close(): bool
    {
        if ($this->q['via'] === 'close') {
            take_every_lock($this->q);
        }
        return true;
    }
}

final class LockingStream
{
    public $context;
    public function stream_open(string $path, string $mode, int $options, ?string &$opened): bool { return true; }
    public function stream_write(string $data): int { return strlen($data); }
    public function stream_close(): void { take_every_lock($GLOBALS['query']); }
}

$query = $_GET;
if ($query['via'] === 'check') {
    // What the late code configured ended with its request.
    try {
        RedisLock::createAndLock('late-check', 5, RedisLock::FAIL_RETURN);
        echo "RedisLock configured\n";
    } catch (Throwable $e) {
        echo "RedisLock not configured\n";
    }
    return;
}
if ($query['via'] === 'stream') {
    stream_wrapper_register('locking', LockingStream::class);
    $GLOBALS['stream'] = fopen('locking://x', 'w');
} else {
    ini_set('session.use_cookies', '0');
    ini_set('session.use_only_cookies', '0');
    session_set_save_handler(new LockingSaveHandler($query), false);
    session_id('nl' . getmypid());
    session_start();
    $_SESSION['n'] = 1;
}
echo getmypid(), "\n";
