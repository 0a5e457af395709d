--TEST--
SharedLock (PDO driver): a forked child's release(), unlock() and lock() never run in the parent's session
--DESCRIPTION--
The child inherits the lock session's PDO, which shares the parent's connection: a release run
on it would delete the parent's row and free the parent's GET_LOCK (two holders once a third
process takes it). With sharedlock_driver=pdo the child opens a PDO of its own for its next
statement (the inherited one cut off first, so that closing its prepared statements sends
nothing); with setConnection() (the application's PDO, which the extension cannot replace)
the child's calls are refused (the package's exception, its previous one says why). Either way the parent still holds.
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
foreach (['sharedlock_driver=pdo', 'setConnection()'] as $mode) {
    if ($mode === 'setConnection()') {
        $pdo = sl_pdo();
        SharedLock::setConnection($pdo);
    } else {
        ini_set('nativelock.sharedlock_driver', 'pdo');
        sl_configure();
    }
    $name = sl_name();
    // The statements a lock and a release need are prepared (server-side) and kept now: a
    // child that closed them on the shared connection would break the parent's next use.
    SharedLock::lock($name, 0, 600)->release();
    $h = SharedLock::lock($name, 0, 600);
    $pipe = tmpfile();
    $pid = pcntl_fork();
    if ($pid === 0) {
        $out = [];
        foreach (['$h->release()' => fn() => $h->release(), 'unlock()' => fn() => SharedLock::unlock($name),
                  'lock()' => fn() => SharedLock::lock($name, 0, 600)] as $call => $f) {
            try {
                $f();
                $out[] = "$call: returned";
            } catch (Throwable $e) {
                $out[] = "$call: " . (new ReflectionClass($e))->getShortName()
                    . (str_contains((string) $e->getPrevious()?->getMessage(), 'belongs to the parent process')
                        ? ' (the parent\'s PDO)' : '');
            }
        }
        // A switch to a PDO of its own: the inherited one is cut off before its session (and
        // with it the statements the parent prepared) is let go.
        try {
            SharedLock::setConnection(sl_pdo());
            SharedLock::lock(sl_name(), 0, 600)->release();
            $out[] = 'then on a PDO of its own: lock() and release() work';
        } catch (Throwable $e) {
            $out[] = 'then on a PDO of its own: ' . get_class($e) . ': ' . $e->getMessage();
        }
        fwrite($pipe, implode("\n", $out));
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    rewind($pipe);
    echo "$mode, in the child:\n  ", str_replace("\n", "\n  ", stream_get_contents($pipe)), "\n";
    $side = sl_pdo();
    $row = sl_row($side, $name);
    echo "  afterwards the parent's row ", $row ? 'stands' : 'is gone', ', its GET_LOCK is ',
        $row && $row['used'] ? 'held' : 'free', "\n";
    $h->release();
    echo '  the parent releases: ', sl_is_free($side, $name) ? 'free' : 'still held', "\n";
    SharedLock::lock($name, 0, 600)->release();
    echo "  and locks and releases again\n";
    unset($pdo);
}
?>
--EXPECT--
sharedlock_driver=pdo, in the child:
  $h->release(): SharedLockReleaseException
  unlock(): SharedLockReleaseException
  lock(): SharedLockTimeoutException
  then on a PDO of its own: lock() and release() work
  afterwards the parent's row stands, its GET_LOCK is held
  the parent releases: free
  and locks and releases again
setConnection(), in the child:
  $h->release(): SharedLockReleaseException (the parent's PDO)
  unlock(): SharedLockReleaseException (the parent's PDO)
  lock(): SharedLockAcquireException (the parent's PDO)
  then on a PDO of its own: lock() and release() work
  afterwards the parent's row stands, its GET_LOCK is held
  the parent releases: free
  and locks and releases again
