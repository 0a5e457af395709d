<?php
// A user session save handler whose write() takes a lock of every kind and keeps it, as a
// handler that serialises session writes would. PHP calls write() at request end, after the
// response: what it took must still be released when the request ends. write() reports what
// it acquired in the file ?report=. Prints the pid.
use ItsMieger\MySqlSharedLocks\SharedLock;

final class LockingSaveHandler implements SessionHandlerInterface
{
    public function __construct(private array $q) {}

    public function open(string $path, string $name): bool { return true; }
    public function close(): bool { return true; }
    public function read(string $id): string|false { return ''; }
    public function destroy(string $id): bool { return true; }
    public function gc(int $max): int|false { return 0; }

    public function write(string $id, string $data): bool
    {
        $env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
        $name = $this->q['name'];
        $got = [];
        try {
            $host = $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1');
            $port = (int) $env('NATIVELOCK_MYSQL_PORT', '13306');
            $db = $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test');
            $user = $env('NATIVELOCK_MYSQL_USER', 'nativelock');
            $password = $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock');
            ini_set('nativelock.sharedlock_driver', $this->q['driver']);
            SharedLock::configureConnection($host, $db, $user, $password, 'utf8mb4', $port);
            $GLOBALS['held'][] = SharedLock::lock($name, 2, 60);
            $got[] = 'shared';

            $file = new Filelock($name);
            if ($file->lock(2.0) === LOCKFILE_SUCCESS) {
                $GLOBALS['held'][] = $file;
                $got[] = 'file';
            }
            RedisLock::setRedis($this->q['uri']);
            if ($redis = RedisLock::createAndLock($name, 60, RedisLock::FAIL_RETURN)) {
                $GLOBALS['held'][] = $redis;
                $got[] = 'redis';
            }
            $native = new Nativelock\Lock(new Nativelock\RedisBackend($this->q['uri']), $name . '-native');
            if ($native->acquire(60)) {
                $GLOBALS['held'][] = $native;
                $got[] = 'native-redis';
            }
            $nativeFile = new Nativelock\Lock(new Nativelock\FileBackend($this->q['dir']), $name . '-native');
            if ($nativeFile->acquire(60)) {
                $GLOBALS['held'][] = $nativeFile;
                $got[] = 'native-file';
            }
        } catch (Throwable $e) {
            $got[] = get_class($e) . ': ' . $e->getMessage();
        }
        file_put_contents($this->q['report'], implode(',', $got));
        return true;
    }
}

ini_set('session.use_cookies', '0');
ini_set('session.use_only_cookies', '0');
session_set_save_handler(new LockingSaveHandler($_GET), false);
session_id('nl' . getmypid());
session_start();
$_SESSION['n'] = 1;
echo getmypid(), "\n";
