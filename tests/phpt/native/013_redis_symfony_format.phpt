--TEST--
Native API, Redis FORMAT_SYMFONY: Symfony's sorted-set layout, shared readers, a writer excluded, promotion and demotion, a waiting writer woken by the last reader's release
--EXTENSIONS--
igbinary
redis
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
use Nativelock\{Lock, RedisBackend};
$r = nl_redis();
$backend = new RedisBackend(nl_redis_uri(), RedisBackend::FORMAT_SYMFONY);
var_dump($backend->getFormat(), $backend->supportsShared());
$key = nl_lock_name('symfony');

$writer = new Lock($backend, $key);
var_dump($writer->acquire(10.0));
// Symfony's layout: a sorted set holding the token and "__write__", scored by expiry in ms.
$members = $r->zRange($key, 0, -1, true);
var_dump($r->type($key) === Redis::REDIS_ZSET, count($members) === 2);
var_dump(isset($members['__write__'], $members[$writer->getToken()]));
$nowMs = (int) ($r->time()[0] * 1000);
var_dump(abs($members['__write__'] - ($nowMs + 10000)) < 2000, $backend->currentOwner($key) === $writer->getToken());

$reader = new Lock($backend, $key);
var_dump($reader->acquire(10.0, 0.0, true), $reader->acquire(10.0, 0.2, true)); // a writer holds it
// Demotion: the writer asks for a read lock; then a second reader joins.
var_dump($writer->acquire(10.0, 0.0, true), $writer->isShared(), $backend->currentOwner($key));
var_dump($reader->acquire(10.0, 0.0, true), $r->zCard($key));
// A writer is refused while readers hold it; promotion needs the reader to be alone.
$other = new Lock($backend, $key);
var_dump($other->acquire(10.0), $writer->acquire(10.0));
var_dump($reader->release(), $writer->acquire(10.0), $writer->isShared(), $backend->currentOwner($key) === $writer->getToken());
var_dump($writer->release(), $r->exists($key));

// A writer in another process waits behind two readers and is woken by the last release.
$a = new Lock($backend, $key);
$b = new Lock($backend, $key);
var_dump($a->acquire(30.0, 0.0, true), $b->acquire(30.0, 0.0, true));
$proc = nl_spawn('require ' . var_export(__DIR__ . '/native.inc', true) . ';
    $backend = new Nativelock\RedisBackend(nl_redis_uri(), Nativelock\RedisBackend::FORMAT_SYMFONY);
    $l = new Nativelock\Lock($backend, ' . var_export($key, true) . ');
    echo "waiting\n";
    $ok = $l->acquire(30.0, 20.0);
    echo ($ok ? "got" : "timeout") . " " . microtime(true) . "\n";
    $l->release();', [], $pipes);
nl_read_line($pipes[1]);
usleep(300000);
$a->release();
usleep(300000);
$t = microtime(true);
$b->release();
[$what, $at] = explode(' ', nl_read_line($pipes[1], 20.0));
proc_close($proc);
printf("waiting writer: %s %s\n", $what, ($at - $t) < 1.0 && $at >= $t ? 'after the last reader, promptly' : 'wrong: ' . ($at - $t));
var_dump($r->exists($key));
?>
--EXPECT--
string(7) "symfony"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
NULL
bool(true)
int(2)
bool(false)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
waiting writer: got after the last reader, promptly
int(0)
