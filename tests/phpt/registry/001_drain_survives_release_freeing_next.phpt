--TEST--
Request end: releasing one held lock frees an object whose held lock is next in the registry
--DESCRIPTION--
A held Filelock lives only in a property of a held RedisLock subclass; both are left to request
end. Releasing the RedisLock frees it, and with it the Filelock, whose registry entry was next
in the drain: a use-after-free before the drain stopped keeping `next` (valgrind: run with -m).
The scenario runs here (for -m) and in a child, after whose exit both locks must be free.
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
$scenario = '
    class JobLock extends RedisLock { public $files = []; }
    function leave_both_held(string $dir, string $uri, string $name): void {
        Filelock::$lockpath = $dir;
        RedisLock::setRedis($uri);
        $file = new Filelock($name);
        if ($file->try_lock() !== LOCKFILE_SUCCESS) throw new RuntimeException("not locked");
        $job = JobLock::createAndLock($name, 30);
        $job->files[] = $file;
    }';
$dir = nl_lockdir();
$uri = nl_redis_uri();

$name = nl_lock_name('drain-child');
[$code, $out, $err] = nl_run($scenario . sprintf(' leave_both_held(%s, %s, %s); echo "held\n";',
    var_export($dir, true), var_export($uri, true), var_export($name, true)));
var_dump($code, $out, $err);
Filelock::$lockpath = $dir;
var_dump((new Filelock($name))->is_locked(), nl_redis()->exists('redislock:' . $name));

eval($scenario);
leave_both_held($dir, $uri, nl_lock_name('drain-here'));
echo "end\n";
?>
--EXPECT--
int(0)
string(5) "held
"
string(0) ""
bool(false)
int(0)
end
