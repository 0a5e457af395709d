<?php
use PHPUnit\Framework\TestCase;

/**
 * RedisLock the way an application's suite uses it: setRedis() in setUp, createAndLock()
 * around a critical section, the three fail behaviours, and releaseAllCurrentlyHeldLocks() in
 * tearDown as the gist recommends.
 */
final class RedisLockTest extends TestCase
{
    private string $prefix;

    protected function setUp(): void
    {
        $url = sprintf('redis://%s:%s', nl_env('NATIVELOCK_REDIS_HOST', '127.0.0.1'), nl_env('NATIVELOCK_REDIS_PORT', '16379'));
        RedisLock::setRedis($url);
        $this->prefix = 'phpunit-' . bin2hex(random_bytes(4)) . '-';
    }

    protected function tearDown(): void
    {
        RedisLock::releaseAllCurrentlyHeldLocks();
    }

    public function testCriticalSectionWithCreateAndLock(): void
    {
        $lock = RedisLock::createAndLock($this->prefix . 'invoice', RedisLock::DEFAULT_TIMEOUT);
        $this->assertInstanceOf(RedisLock::class, $lock);
        $this->assertTrue($lock->isAcquired());
        $lock->release();
        $this->assertFalse($lock->isAcquired());
    }

    public function testFailExceptThrowsWhileHeld(): void
    {
        RedisLock::createAndLock($this->prefix . 'busy', 10);
        $this->expectException(RedisLockFailException::class);
        $this->expectExceptionMessage('Could not get lock "' . $this->prefix . 'busy"');
        RedisLock::createAndLock($this->prefix . 'busy', 10);
    }

    public function testFailReturnGivesFalseWhileHeld(): void
    {
        RedisLock::createAndLock($this->prefix . 'busy', 10);
        $this->assertFalse(RedisLock::createAndLock($this->prefix . 'busy', 10, RedisLock::FAIL_RETURN));
    }

    public function testFailBlockWaitsForAnotherProcessToRelease(): void
    {
        $name = $this->prefix . 'handoff';
        $url = sprintf('redis://%s:%s', nl_env('NATIVELOCK_REDIS_HOST', '127.0.0.1'), nl_env('NATIVELOCK_REDIS_PORT', '16379'));
        $child = nl_spawn("RedisLock::setRedis('$url'); \$l = RedisLock::createAndLock('$name', 30);
            echo \"held\\n\"; usleep(300000); \$l->release();", [], $pipes);
        $this->assertSame('held', nl_read_line($pipes[1]));
        $t = microtime(true);
        $lock = RedisLock::createAndLock($name, 30, RedisLock::FAIL_BLOCK);
        $waited = microtime(true) - $t;
        proc_close($child);
        $this->assertInstanceOf(RedisLock::class, $lock);
        // The original would sleep 1 s before its second try; we are woken by the release.
        $this->assertLessThan(0.9, $waited);
    }

    public function testReleaseAllCurrentlyHeldLocksAtTheEnd(): void
    {
        $a = RedisLock::createAndLock($this->prefix . 'a', 10);
        $b = RedisLock::createAndLock($this->prefix . 'b', 10);
        RedisLock::releaseAllCurrentlyHeldLocks();
        $this->assertFalse($a->isAcquired());
        $this->assertFalse($b->isAcquired());
        $this->assertInstanceOf(RedisLock::class, RedisLock::createAndLock($this->prefix . 'a', 10));
    }

    public function testSubclassWithOwnKeyPrefix(): void
    {
        $class = get_class(new class('x', 1, RedisLock::FAIL_EXCEPT) extends RedisLock {
            protected function key()
            {
                return 'myapp:lock:' . $this->name;
            }
        });
        $lock = $class::createAndLock($this->prefix . 'k', 10);
        $this->assertInstanceOf($class, $lock);
        $redis = new Redis();
        $redis->connect(nl_env('NATIVELOCK_REDIS_HOST', '127.0.0.1'), (int) nl_env('NATIVELOCK_REDIS_PORT', '16379'));
        $this->assertSame(1, $redis->exists('myapp:lock:' . $this->prefix . 'k'));
        $lock->release();
        $this->assertSame(0, $redis->exists('myapp:lock:' . $this->prefix . 'k'));
    }
}
