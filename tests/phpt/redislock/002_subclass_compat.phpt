--TEST--
RedisLock: subclasses written against the original (untyped overrides, new static, key()) work
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';

// Overrides with the original's untyped signatures must compile.
class AppLock extends RedisLock
{
    public static $created = 0;
    protected function key() { return 'app:' . $this->name; }
    public function lock() { return parent::lock(); }
    public function release() { parent::release(); }
    public static function create($name, $timeout, $failBehavior = self::FAIL_EXCEPT)
    {
        static::$created++;
        return parent::create($name, $timeout, $failBehavior);
    }
}
class CtorLock extends RedisLock
{
    public $extra;
    public function __construct($name, $timeout, $failBehavior)
    {
        $this->extra = 'ctor ran';
        parent::__construct(strtoupper($name), $timeout, $failBehavior);
    }
}

RedisLock::setRedis(nl_redis_uri());
$r = nl_redis();
$name = nl_lock_name('sub');

$lock = AppLock::createAndLock($name, 10);
var_dump(get_class($lock), AppLock::$created);
var_dump($r->exists('app:' . $name), $r->exists('redislock:' . $name));
$lock->release();
var_dump($r->exists('app:' . $name));

$c = CtorLock::create($name, 10);
var_dump(get_class($c), $c->extra);
var_dump($c->lock(), $r->exists('redislock:' . strtoupper($name)));
$c->release();
var_dump($r->exists('redislock:' . strtoupper($name)));

// The protected properties are the original's.
$p = new class ('n', 7, RedisLock::FAIL_RETURN) extends RedisLock {
    public function dump() { return [$this->name, strlen($this->value), $this->failBehavior, $this->timeout, $this->needsRelease]; }
};
var_dump($p->dump());
?>
--EXPECT--
string(7) "AppLock"
int(1)
int(1)
int(0)
int(0)
string(8) "CtorLock"
string(8) "ctor ran"
bool(true)
int(1)
int(0)
array(5) {
  [0]=>
  string(1) "n"
  [1]=>
  int(20)
  [2]=>
  string(11) "fail_return"
  [3]=>
  int(7)
  [4]=>
  bool(false)
}
