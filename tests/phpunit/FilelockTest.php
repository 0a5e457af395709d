<?php
use PHPUnit\Framework\TestCase;

/**
 * Filelock the way an application's suite uses it: a cron-style job guarded by a lock, its
 * tests creating a private lock directory and asserting "only one of us runs".
 */
final class FilelockTest extends TestCase
{
    private string $dir;
    private string $previousLockpath;

    protected function setUp(): void
    {
        $this->previousLockpath = Filelock::$lockpath;
        $this->dir = sys_get_temp_dir() . '/nl-phpunit-' . getmypid() . '-' . bin2hex(random_bytes(3)) . '/';
        mkdir($this->dir);
        Filelock::$lockpath = $this->dir;
    }

    protected function tearDown(): void
    {
        Filelock::$lockpath = $this->previousLockpath;
        array_map('unlink', glob($this->dir . '*') ?: []);
        rmdir($this->dir);
    }

    /** The typical application code: skip the job when another instance runs it. */
    private function runExclusive(string $job, callable $work): bool
    {
        $lock = new Filelock($job);
        if ($lock->try_lock() !== LOCKFILE_SUCCESS) {
            return false;
        }
        try {
            $work();
        } finally {
            $lock->unlock();
        }
        return true;
    }

    public function testJobRunsWhenNobodyHoldsTheLock(): void
    {
        $ran = false;
        $this->assertTrue($this->runExclusive('import', function () use (&$ran) { $ran = true; }));
        $this->assertTrue($ran);
        $this->assertFileDoesNotExist($this->dir . 'import.lock');
    }

    public function testSecondInstanceIsSkippedWhileTheFirstRuns(): void
    {
        $inner = null;
        $this->runExclusive('import', function () use (&$inner) {
            $inner = $this->runExclusive('import', fn() => null);
        });
        $this->assertFalse($inner);
    }

    public function testLockIsReleasedWhenTheJobThrows(): void
    {
        try {
            $this->runExclusive('import', function () { throw new RuntimeException('job failed'); });
            $this->fail('the exception should propagate');
        } catch (RuntimeException $e) {
            $this->assertSame('job failed', $e->getMessage());
        }
        $this->assertFalse((new Filelock('import'))->is_locked());
    }

    public function testAnotherProcessIsExcludedAndWokenOnRelease(): void
    {
        $lock = new Filelock('shared');
        $this->assertSame(LOCKFILE_SUCCESS, $lock->try_lock());
        $dir = $this->dir;
        $child = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('shared');
            echo \$l->try_lock(), \"\\n\"; \$t = microtime(true); echo \$l->lock(10.0), ' ', round(microtime(true) - \$t, 3), \"\\n\";", [], $pipes);
        $this->assertSame((string) LOCKFILE_ERROR_ALREADY_LOCKED, nl_read_line($pipes[1]));
        usleep(200000);
        $lock->unlock();
        [$result, $waited] = explode(' ', nl_read_line($pipes[1]));
        proc_close($child);
        $this->assertSame((string) LOCKFILE_SUCCESS, $result);
        $this->assertLessThan(5.0, (float) $waited);
    }

    public function testSubclassWithExtraOwnerData(): void
    {
        $lock = new class('report') extends Filelock {
            public function bake_data()
            {
                return parent::bake_data() + ['job_id' => 42];
            }
        };
        $this->assertSame(LOCKFILE_SUCCESS, $lock->try_lock());
        $record = unserialize(file_get_contents($this->dir . 'report.lock'));
        $this->assertSame(42, $record['job_id']);
        $this->assertSame(getmypid(), $record['mypid']);
        $lock->unlock();
    }

    public function testUnwritableDirectoryReportsFailureNotAnException(): void
    {
        Filelock::$lockpath = $this->dir . 'missing/';
        $this->assertSame(LOCKFILE_ERROR_FAIL_TO_OBTAIN_LOCK, (new Filelock('x'))->try_lock());
    }
}
