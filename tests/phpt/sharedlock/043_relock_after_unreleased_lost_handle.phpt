--TEST--
SharedLock (native driver): a name taken again after a lost, never released handle: each handle releases its own lock, in either order
--DESCRIPTION--
After the first lock of a name was lost with its session (here: KILLed) and never released, the
name is taken again on the new session. Each handle is matched to its own acquisition: the live
one's release frees the lock, the lost one's reports it lost and leaves the live lock alone
(also its assertTTL(), which the new holder's row would otherwise pass); the static unlock()
of the name means the live lock. A handle's second release, a clone of it and its
setAutoRenew() never reach the later lock either. Until 2026-11-27 the first release of either handle judged
the lost entry (the live lock was reported lost and left held until its TTL); a first fix that
judged the newest entry let the lost handle's release free the live lock.
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
use ItsMieger\MySqlSharedLocks\Exception as E;
ini_set('nativelock.sharedlock_driver', 'native');
sl_configure();
$side = sl_pdo();
$try = function (string $what, callable $f) {
    try {
        $f();
        echo "$what: ok\n";
    } catch (E\SharedLockException $e) {
        echo "$what: ", (new ReflectionClass($e))->getShortName(), "\n";
    }
};
function lose(PDO $side, string $name): void
{
    $side->exec('KILL ' . $side->query('SELECT IS_USED_LOCK(' . $side->quote($name) . ')')->fetchColumn());
    usleep(200000);
}
foreach (['the live handle first', 'the lost handle first', 'the static unlock() first'] as $order) {
    echo "-- $order\n";
    $name = sl_name();
    $h1 = SharedLock::lock($name, 0, 600);
    lose($side, $name);
    $h2 = SharedLock::lock($name, 5, 600);
    $try('lost handle assertTTL()', fn() => $h1->assertTTL());
    $try('live handle assertTTL()', fn() => $h2->assertTTL());
    $first = match ($order) {
        'the live handle first' => ['live handle release()', fn() => $h2->release()],
        'the lost handle first' => ['lost handle release()', fn() => $h1->release()],
        'the static unlock() first' => ['SharedLock::unlock()', fn() => SharedLock::unlock($name)],
    };
    $try($first[0], $first[1]);
    echo '  the lock is now ', sl_is_free($side, $name) ? 'free' : 'held', "\n";
    $rest = $order === 'the lost handle first' ? ['live handle release()', fn() => $h2->release()]
        : ['lost handle release()', fn() => $h1->release()];
    $try($rest[0], $rest[1]);
    echo '  afterwards: ', sl_is_free($side, $name) ? 'free' : 'held', "\n";
}
echo "-- the lost handle renewed, released twice, cloned\n";
$name = sl_name();
$h1 = SharedLock::lock($name, 0, 600);
lose($side, $name);
$h2 = SharedLock::lock($name, 5, 30);
$try('lost handle setAutoRenew()', fn() => $h1->setAutoRenew());
echo '  the live lock\'s row keeps its TTL: ', sl_row($side, $name)['ttl'], "\n";
$try('lost handle release()', fn() => $h1->release());
$try('lost handle release() again', fn() => $h1->release());
$c = clone $h1;
$try('its clone release()', fn() => $c->release());
$try('its clone assertTTL()', fn() => $c->assertTTL());
echo '  the lock is now ', sl_is_free($side, $name) ? 'free' : 'held', "\n";
$c2 = clone $h2;
$try('a clone of the live handle assertTTL()', fn() => $c2->assertTTL());
$try('live handle release()', fn() => $h2->release());
echo '  afterwards: ', sl_is_free($side, $name) ? 'free' : 'held', "\n";
echo "-- a handle made with new, by name as in the package\n";
$name = sl_name();
SharedLock::lock($name, 0, 600);
$try('new SharedLockHandle($name)->release()', fn() => (new ItsMieger\MySqlSharedLocks\SharedLockHandle($name))->release());
echo '  afterwards: ', sl_is_free($side, $name) ? 'free' : 'held', "\n";
?>
--EXPECT--
-- the live handle first
lost handle assertTTL(): SharedLockRemainingTTLException
live handle assertTTL(): ok
live handle release(): ok
  the lock is now free
lost handle release(): SharedLockReleaseException
  afterwards: free
-- the lost handle first
lost handle assertTTL(): SharedLockRemainingTTLException
live handle assertTTL(): ok
lost handle release(): SharedLockReleaseException
  the lock is now held
live handle release(): ok
  afterwards: free
-- the static unlock() first
lost handle assertTTL(): SharedLockRemainingTTLException
live handle assertTTL(): ok
SharedLock::unlock(): ok
  the lock is now free
lost handle release(): SharedLockReleaseException
  afterwards: free
-- the lost handle renewed, released twice, cloned
lost handle setAutoRenew(): SharedLockException
  the live lock's row keeps its TTL: 30
lost handle release(): SharedLockReleaseException
lost handle release() again: SharedLockReleaseException
its clone release(): SharedLockReleaseException
its clone assertTTL(): SharedLockRemainingTTLException
  the lock is now held
a clone of the live handle assertTTL(): ok
live handle release(): ok
  afterwards: free
-- a handle made with new, by name as in the package
new SharedLockHandle($name)->release(): ok
  afterwards: free
