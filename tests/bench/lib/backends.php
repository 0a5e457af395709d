<?php
// Every lock implementation the benchmark drives, behind one small adapter interface, so that
// each scenario runs the same loop for all of them. A backend whose class is missing (the
// extension was built without it, a PHP extension is not loaded) reports why in
// unavailable() and every scenario prints a "not available" row for it.
//
// Configuration comes from the environment (tests/bench/run.sh sets it):
//   NATIVELOCK_BENCH_LOCKDIR            directory for lock files (ends with '/')
//   NATIVELOCK_REDIS_HOST / _PORT       redis-server started by run.sh
//   NATIVELOCK_MYSQL_HOST / _PORT / _USER / _PASSWORD / _DATABASE   mariadbd started by run.sh

const NLB_SYMFONY_AUTOLOAD = '/usr/share/php/Symfony/Component/Lock/autoload.php';

// An ini of the scan directory that loads an installed nativelock wins over
// `-d extension=modules/nativelock.so` (PHP refuses the second load): the figures would be the
// installed module's. run.sh and profile.sh hide such inis. A tool started by hand (contend_ab.php
// compared the installed module with itself) says so, and its children (nlb_php_argv()) get a
// private scan directory with every other ini.
function nlb_loads_nativelock(string $ini): bool
{
    return (bool) preg_match('/^\s*(zend_)?extension\s*=\s*["\']?[^\n]*nativelock/mi', (string) @file_get_contents($ini));
}
$nlbScanned = array_map('trim', array_filter(explode(',', (string) php_ini_scanned_files())));
foreach ($nlbScanned as $nlbIni) {
    if (!nlb_loads_nativelock($nlbIni)) {
        continue;
    }
    $nlbScan = sys_get_temp_dir() . '/nativelock-bench-scan-' . bin2hex(random_bytes(8));
    if (!@mkdir($nlbScan, 0700)) {
        fwrite(STDERR, "warning: $nlbIni loads an installed nativelock, not the build's, and $nlbScan could not be made;"
            . " run with PHP_INI_SCAN_DIR pointing at a directory without it\n");
        break;
    }
    foreach ($nlbScanned as $ini) {
        $link = "$nlbScan/" . basename($ini);
        if (!nlb_loads_nativelock($ini) && !file_exists($link) && !@symlink($ini, $link)) {
            fwrite(STDERR, "warning: $ini could not be linked into $nlbScan: child processes run without it\n");
        }
    }
    putenv("PHP_INI_SCAN_DIR=$nlbScan");
    $nlbOwner = getmypid();  // a pcntl_fork()ed child inherits the shutdown function
    register_shutdown_function(function () use ($nlbScan, $nlbOwner) {
        if (getmypid() === $nlbOwner) {
            array_map('unlink', glob("$nlbScan/*") ?: []);
            @rmdir($nlbScan);
        }
    });
    fwrite(STDERR, "note: $nlbIni loads an installed nativelock; this process has it,"
        . " its child processes run without it (PHP_INI_SCAN_DIR=$nlbScan)\n");
    break;
}

function nlb_env(string $name, string $default = ''): string
{
    $v = getenv($name);
    return $v === false || $v === '' ? $default : $v;
}

function nlb_lockdir(): string
{
    $dir = nlb_env('NATIVELOCK_BENCH_LOCKDIR', sys_get_temp_dir() . '/nativelock-bench/');
    if (!is_dir($dir)) {
        @mkdir($dir, 0777, true);
    }
    return rtrim($dir, '/') . '/';
}

function nlb_redis_host(): string { return nlb_env('NATIVELOCK_REDIS_HOST', '127.0.0.1'); }
function nlb_redis_port(): int { return (int) nlb_env('NATIVELOCK_REDIS_PORT', '16379'); }
function nlb_mysql(): array
{
    return [
        'host' => nlb_env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'),
        'port' => (int) nlb_env('NATIVELOCK_MYSQL_PORT', '13306'),
        'user' => nlb_env('NATIVELOCK_MYSQL_USER', 'nativelock'),
        'pass' => nlb_env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'),
        'db' => nlb_env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
    ];
}

function nlb_pdo(): PDO
{
    $m = nlb_mysql();
    return new PDO("mysql:host={$m['host']};port={$m['port']};dbname={$m['db']};charset=utf8mb4", $m['user'], $m['pass'],
        [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
}

function nlb_phpredis(): Redis
{
    $r = new Redis();
    $r->connect(nlb_redis_host(), nlb_redis_port(), 2.0);
    return $r;
}

/** Null if something listens on host:port, else why not. */
function nlb_server_down(string $what, string $host, int $port): ?string
{
    $s = @fsockopen($host, $port, $errno, $errstr, 1.0);
    if ($s) {
        fclose($s);
        return null;
    }
    return "$what not reachable at $host:$port ($errstr)";
}

function nlb_symfony_available(): ?string
{
    if (!is_file(NLB_SYMFONY_AUTOLOAD)) {
        return 'php-symfony-lock not installed';
    }
    require_once NLB_SYMFONY_AUTOLOAD;
    return null;
}

abstract class NlbBackend
{
    /** @var string short id, used on command lines and in file names */
    public $id;
    /** @var string row label */
    public $label;
    /** @var string 'file' | 'redis' | 'mysql' */
    public $group;
    /** @var string 'ours' | 'peer' | 'original' | 'floor' */
    public $kind;
    /** @var bool whether it can block (hand-off, contention) */
    public $blocking = true;
    /** @var string how it waits, for the tables */
    public $waits = '';

    /** Null when usable, else why not (class missing, server down). */
    abstract public function unavailable(): ?string;

    /** Per-process set-up (connections, configuration). */
    public function setUp(): void {}

    /** One non-blocking attempt; a handle for release(), or null when held elsewhere. */
    abstract public function tryAcquire(string $name);

    /** Waits until acquired; returns the handle. */
    abstract public function acquire(string $name);

    abstract public function release($handle): void;

    /** Only creates the lock object (memory scenario, create-only paths); null if n/a. */
    public function create(string $name) { return null; }
    public function hasCreate(): bool { return false; }

    /** Create + acquire + release, $n times, uncontended; µs per cycle. */
    public function cycleUs(string $name, int $n): float
    {
        $t = hrtime(true);
        for ($i = 0; $i < $n; $i++) {
            $h = $this->tryAcquire($name);
            if ($h === null) {
                throw new RuntimeException("{$this->id}: uncontended acquire failed");
            }
            $this->release($h);
        }
        return (hrtime(true) - $t) / 1e3 / $n;
    }
}

// ---------------------------------------------------------------- files

class NlbFilelock extends NlbBackend
{
    public $id = 'filelock', $label = 'nativelock Filelock', $group = 'file', $kind = 'ours';
    public $waits = 'inotify + pidfd';

    public function unavailable(): ?string
    {
        return class_exists('Filelock', false) ? null : 'class Filelock not available (nativelock not loaded)';
    }
    public function setUp(): void { Filelock::$lockpath = nlb_lockdir(); }
    public function tryAcquire(string $name)
    {
        $l = new Filelock($name);
        return $l->try_lock() === LOCKFILE_SUCCESS ? $l : null;
    }
    public function acquire(string $name)
    {
        $l = new Filelock($name);
        if ($l->lock() !== LOCKFILE_SUCCESS) {
            throw new RuntimeException('Filelock::lock() failed');
        }
        return $l;
    }
    public function release($h): void { $h->unlock(); }
}

class NlbOriginalFilelock extends NlbBackend
{
    public $id = 'orig-filelock', $label = 'original PHP Filelock', $group = 'file', $kind = 'original';
    public $waits = 'sleep-poll 100 ms';

    public function unavailable(): ?string
    {
        $f = __DIR__ . '/../../lib/original_filelock.inc';
        if (!is_file($f)) {
            return 'tests/lib/original_filelock.inc missing';
        }
        require_once $f;
        return null;
    }
    public function setUp(): void { OriginalFilelock::$lockpath = nlb_lockdir(); }
    public function tryAcquire(string $name)
    {
        $l = new OriginalFilelock($name);
        return $l->try_lock() === LOCKFILE_SUCCESS ? $l : null;
    }
    public function acquire(string $name)
    {
        $l = new OriginalFilelock($name);
        $l->lock();
        return $l;
    }
    public function release($h): void { $h->unlock(); }
}

abstract class NlbSymfony extends NlbBackend
{
    public $kind = 'peer';
    protected $factory;

    abstract protected function store();

    public function unavailable(): ?string { return nlb_symfony_available(); }
    public function setUp(): void
    {
        $this->factory = new Symfony\Component\Lock\LockFactory($this->store());
    }
    public function tryAcquire(string $name)
    {
        $l = $this->factory->createLock($name, 300.0, false);
        return $l->acquire(false) ? $l : null;
    }
    public function acquire(string $name)
    {
        $l = $this->factory->createLock($name, 300.0, false);
        $l->acquire(true);
        return $l;
    }
    public function release($h): void { $h->release(); }
}

class NlbSymfonyFlock extends NlbSymfony
{
    public $id = 'sf-flock', $label = 'Symfony FlockStore', $group = 'file', $waits = 'flock(LOCK_EX)';
    protected function store() { return new Symfony\Component\Lock\Store\FlockStore(nlb_lockdir()); }
}

class NlbSymfonySemaphore extends NlbSymfony
{
    public $id = 'sf-semaphore', $label = 'Symfony SemaphoreStore', $group = 'file', $waits = 'sem_acquire';
    public function unavailable(): ?string
    {
        return extension_loaded('sysvsem') ? parent::unavailable() : 'sysvsem not loaded';
    }
    protected function store() { return new Symfony\Component\Lock\Store\SemaphoreStore(); }
}

// ---------------------------------------------------------------- redis

class NlbRedisLock extends NlbBackend
{
    public $id = 'redislock', $label = 'nativelock RedisLock', $group = 'redis', $kind = 'ours';
    public $waits = 'pub/sub wake-up';

    public function unavailable(): ?string
    {
        return class_exists('RedisLock', false) ? nlb_server_down('redis-server', nlb_redis_host(), nlb_redis_port())
            : 'class RedisLock not available (not in this build of nativelock)';
    }
    public function setUp(): void
    {
        RedisLock::setRedis('redis://' . nlb_redis_host() . ':' . nlb_redis_port());
    }
    public function tryAcquire(string $name)
    {
        $l = RedisLock::createAndLock($name, 20, RedisLock::FAIL_RETURN);
        return $l ?: null;
    }
    public function acquire(string $name)
    {
        return RedisLock::createAndLock($name, 20, RedisLock::FAIL_BLOCK);
    }
    public function create(string $name) { return RedisLock::create($name, 20); }
    public function hasCreate(): bool { return true; }
    public function release($h): void { $h->release(); }
}

class NlbOriginalRedisLock extends NlbBackend
{
    public $id = 'orig-redislock', $label = 'original PHP RedisLock (Credis over phpredis)', $group = 'redis', $kind = 'original';
    public $waits = 'sleep-retry 5 x';

    public function unavailable(): ?string
    {
        $dir = __DIR__ . '/../../lib/';
        if (!is_file($dir . 'original_redislock.inc') || !is_file($dir . 'credis_client.inc')) {
            return 'tests/lib/original_redislock.inc not present';
        }
        if (!extension_loaded('redis')) {
            return 'phpredis not loaded';
        }
        if (($down = nlb_server_down('redis-server', nlb_redis_host(), nlb_redis_port())) !== null) {
            return $down;
        }
        if (!class_exists('Credis_Client', false)) {
            require_once $dir . 'credis_client.inc';
        }
        require_once $dir . 'original_redislock.inc';
        return null;
    }
    public function setUp(): void
    {
        \NlOriginal\RedisLock::setRedis(new Credis_Client(nlb_redis_host(), nlb_redis_port()));
    }
    public function tryAcquire(string $name)
    {
        $l = \NlOriginal\RedisLock::createAndLock($name, 20, \NlOriginal\RedisLock::FAIL_RETURN);
        return $l ?: null;
    }
    public function acquire(string $name)
    {
        return \NlOriginal\RedisLock::createAndLock($name, 20, \NlOriginal\RedisLock::FAIL_BLOCK);
    }
    public function create(string $name) { return \NlOriginal\RedisLock::create($name, 20); }
    public function hasCreate(): bool { return true; }
    public function release($h): void { $h->release(); }
}

class NlbPhpredisFloor extends NlbBackend
{
    public $id = 'phpredis-floor', $label = 'floor: SET NX EX + DEL via phpredis', $group = 'redis', $kind = 'floor';
    public $blocking = false;
    protected $r;

    public function unavailable(): ?string { return extension_loaded('redis') ? null : 'phpredis not loaded'; }
    public function setUp(): void { $this->r = nlb_phpredis(); }
    public function tryAcquire(string $name)
    {
        $key = 'redislock:' . $name;
        return $this->r->set($key, 'floor-token-0123', ['NX', 'EX' => 20]) ? $key : null;
    }
    public function acquire(string $name) { throw new LogicException('floor does not block'); }
    public function release($h): void { $this->r->del($h); }
}

// What RedisLock's wire protocol costs at least, from PHP: the floor's SET NX EX, and a release
// by the same compare-and-delete Lua script shape as RedisLock's when nobody waits (GET and
// compare, ZCARD of the wait queue, DEL). The script's call in redis-server is what separates
// it from the DEL of the floor.
class NlbPhpredisWireFloor extends NlbPhpredisFloor
{
    public $id = 'phpredis-wire', $label = 'wire floor: SET NX EX + compare-and-delete script via phpredis';
    private $sha;
    private const RELEASE = 'if redis.call("get",KEYS[1]) ~= ARGV[1] then return 0 end '
        . 'if redis.call("zcard",KEYS[2]) > 0 then return 2 end '
        . 'redis.call("del",KEYS[1]) return 1';

    public function setUp(): void
    {
        parent::setUp();
        $this->sha = $this->r->script('load', self::RELEASE);
    }
    public function release($h): void
    {
        if ($this->r->evalSha($this->sha, [$h, 'nativelock:queue:' . $h, 'floor-token-0123'], 2) !== 1) {
            throw new RuntimeException('wire floor: release script did not delete the key');
        }
    }
}

class NlbSymfonyRedis extends NlbSymfony
{
    public $id = 'sf-redis', $label = 'Symfony RedisStore (phpredis)', $group = 'redis', $waits = 'sleep-retry 100 ms';
    public function unavailable(): ?string
    {
        return extension_loaded('redis') ? parent::unavailable() : 'phpredis not loaded';
    }
    protected function store() { return new Symfony\Component\Lock\Store\RedisStore(nlb_phpredis()); }
}

// ---------------------------------------------------------------- mysql

class NlbSharedLock extends NlbBackend
{
    public $id = 'sharedlock', $label = 'nativelock SharedLock', $group = 'mysql', $kind = 'ours';
    public $waits = 'server-side GET_LOCK';

    public function unavailable(): ?string
    {
        $m = nlb_mysql();
        return class_exists('ItsMieger\MySqlSharedLocks\SharedLock', false) ? nlb_server_down('mariadbd', $m['host'], $m['port'])
            : 'class SharedLock not available (not in this build of nativelock)';
    }
    public function setUp(): void
    {
        $m = nlb_mysql();
        \ItsMieger\MySqlSharedLocks\SharedLock::configureConnection($m['host'], $m['db'], $m['user'], $m['pass'], 'utf8mb4', $m['port']);
    }
    public function tryAcquire(string $name)
    {
        try {
            return \ItsMieger\MySqlSharedLocks\SharedLock::lock($name, 0, 30);
        } catch (\ItsMieger\MySqlSharedLocks\Exception\SharedLockException $e) {
            return null;
        }
    }
    public function acquire(string $name)
    {
        return \ItsMieger\MySqlSharedLocks\SharedLock::lock($name, 30, 60);
    }
    public function release($h): void { $h->release(); }
}

class NlbPdoFloor extends NlbBackend
{
    public $id = 'pdo-floor', $label = 'floor: GET_LOCK + RELEASE_LOCK via PDO', $group = 'mysql', $kind = 'floor';
    public $waits = 'GET_LOCK(name, 10): the server\'s queue';
    private $pdo;

    public function unavailable(): ?string { return extension_loaded('pdo_mysql') ? null : 'pdo_mysql not loaded'; }
    public function setUp(): void { $this->pdo = nlb_pdo(); }
    public function tryAcquire(string $name)
    {
        $q = $this->pdo->quote($name);
        return (int) $this->pdo->query("SELECT GET_LOCK($q, 0)")->fetchColumn() === 1 ? $q : null;
    }
    // Contended, the least any GET_LOCK lock can do: wait in the server's queue, no row.
    public function acquire(string $name)
    {
        $q = $this->pdo->quote($name);
        if ((int) $this->pdo->query("SELECT GET_LOCK($q, 10)")->fetchColumn() !== 1) {
            throw new RuntimeException('floor: GET_LOCK timed out');
        }
        return $q;
    }
    public function release($h): void { $this->pdo->query("SELECT RELEASE_LOCK($h)")->fetchColumn(); }
}

// What SharedLock's wire protocol costs at least, from PHP: its two statements, each with the
// package's row (the table every client of the package reads): the row and GET_LOCK(name, 0) in
// one INSERT, the row deleted and GET_LOCK released in one DELETE. Contended (fair, as SharedLock
// is): a wait in GET_LOCK's queue, then the row, written once granted; nothing else (no TTL
// take-over, no other spelling, no client of the package's order).
class NlbPdoWireFloor extends NlbBackend
{
    public $id = 'pdo-wire', $label = 'wire floor: the row + GET_LOCK in one INSERT, one DELETE, via PDO', $group = 'mysql', $kind = 'floor';
    public $waits = 'GET_LOCK(name, 10), then the row';
    private $acquire, $release, $wait, $claim;

    public function unavailable(): ?string { return extension_loaded('pdo_mysql') ? null : 'pdo_mysql not loaded'; }
    public function setUp(): void
    {
        $pdo = nlb_pdo();
        $pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, false);
        $this->acquire = $pdo->prepare('INSERT INTO shared_locks (name, created, ttl, connection_id, lock_acquired) '
            . 'VALUES (?, unix_timestamp(), 30, connection_id(), IF(GET_LOCK(?, 0) = 1, true, ~0 + 1))');
        $this->release = $pdo->prepare('DELETE FROM shared_locks WHERE name = ? AND connection_id = connection_id() '
            . 'AND IS_USED_LOCK(?) = connection_id() AND IFNULL(RELEASE_LOCK(?), 0) >= 0');
        $this->wait = $pdo->prepare('SELECT GET_LOCK(?, 10)');
        $this->claim = $pdo->prepare('INSERT INTO shared_locks (name, created, ttl, connection_id, lock_acquired) '
            . 'VALUES (?, unix_timestamp(), 30, connection_id(), true)');
    }
    public function tryAcquire(string $name)
    {
        try {
            $this->acquire->execute([$name, $name]);
        } catch (PDOException $e) {
            return null;
        }
        return $name;
    }
    public function acquire(string $name)
    {
        $this->wait->execute([$name]);
        if ((int) $this->wait->fetchColumn() !== 1) {
            throw new RuntimeException('wire floor: GET_LOCK timed out');
        }
        $this->claim->execute([$name]);
        return $name;
    }
    public function release($h): void
    {
        $this->release->execute([$h, $h, $h]);
        if ($this->release->rowCount() !== 1) throw new RuntimeException('wire floor: row not deleted');
    }
}

class NlbSymfonyPdo extends NlbSymfony
{
    public $id = 'sf-pdo', $label = 'Symfony PdoStore (pdo_mysql)', $group = 'mysql', $waits = 'sleep-retry 100 ms';
    public function unavailable(): ?string
    {
        return extension_loaded('pdo_mysql') ? parent::unavailable() : 'pdo_mysql not loaded';
    }
    protected function store()
    {
        $store = new Symfony\Component\Lock\Store\PdoStore(nlb_pdo(), ['db_table' => 'nlbench_lock_keys']);
        try {
            $store->createTable();
        } catch (PDOException $e) {
            // exists already
        }
        return $store;
    }
}

/** @return NlbBackend[] keyed by id, in table order */
function nlb_backends(): array
{
    $all = [
        new NlbFilelock(), new NlbOriginalFilelock(), new NlbSymfonyFlock(), new NlbSymfonySemaphore(),
        new NlbRedisLock(), new NlbPhpredisFloor(), new NlbPhpredisWireFloor(), new NlbOriginalRedisLock(), new NlbSymfonyRedis(),
        new NlbSharedLock(), new NlbPdoFloor(), new NlbPdoWireFloor(), new NlbSymfonyPdo(),
    ];
    $out = [];
    foreach ($all as $b) {
        $out[$b->id] = $b;
    }
    return $out;
}

function nlb_backend(string $id): NlbBackend
{
    $all = nlb_backends();
    if (!isset($all[$id])) {
        throw new InvalidArgumentException("unknown backend $id");
    }
    $b = $all[$id];
    if (($why = $b->unavailable()) !== null) {
        throw new RuntimeException("$id: $why");
    }
    $b->setUp();
    return $b;
}

function nlb_stats(array $xs): array
{
    sort($xs);
    $n = count($xs);
    if ($n === 0) {
        return ['n' => 0, 'min' => null, 'p50' => null, 'p90' => null, 'p99' => null, 'max' => null];
    }
    $pct = fn($p) => $xs[min($n - 1, (int) floor($p * ($n - 1) + 0.5))];
    return ['n' => $n, 'min' => $xs[0], 'p50' => $pct(0.5), 'p90' => $pct(0.9), 'p99' => $pct(0.99), 'max' => $xs[$n - 1]];
}

/**
 * The arguments of the interleaved A/B scripts (contend_ab.php, cycle_ab.php): --name=value
 * options over $defaults, and each --module=label=path in order (none: the built module).
 * Exits on an argument of another form.
 */
function nlb_ab_args(array $argv, array $defaults): array
{
    $modules = [];
    foreach (array_slice($argv, 1) as $a) {
        if (!preg_match('/^--(\w+)=(.*)$/', $a, $m)) {
            fwrite(STDERR, "unknown argument $a\n");
            exit(2);
        }
        if ($m[1] === 'module') {
            [$label, $path] = explode('=', $m[2], 2) + [1 => ''];
            $modules[$label] = $path;
        } else {
            $defaults[$m[1]] = $m[2];
        }
    }
    if ($modules === []) {
        $modules['built'] = realpath(__DIR__ . '/../../../modules/nativelock.so');
    }
    return [$defaults, $modules];
}

/** The median of a non-empty list of numbers. */
function nlb_median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

/** argv of a PHP like this one with the nativelock module under test loaded. */
function nlb_php_argv(): array
{
    $argv = [PHP_BINARY];
    $module = getenv('NATIVELOCK_MODULE') ?: realpath(__DIR__ . '/../../../modules/nativelock.so');
    if ($module) {
        array_push($argv, '-d', 'extension=' . $module);
    }
    return $argv;
}

/** One line from a child's stdout, failing after $timeout seconds. */
function nlb_read_line($stream, float $timeout = 10.0): string
{
    $read = [$stream];
    $w = $e = null;
    $deadline = microtime(true) + $timeout;
    $line = '';
    while (true) {
        $left = $deadline - microtime(true);
        if ($left <= 0) {
            throw new RuntimeException("child did not answer within {$timeout}s (got: '$line')");
        }
        $read = [$stream];
        if (stream_select($read, $w, $e, (int) $left, (int) (fmod($left, 1) * 1e6)) > 0) {
            $chunk = fgets($stream);
            if ($chunk === false) {
                if (feof($stream)) {
                    throw new RuntimeException("child exited (got: '$line')");
                }
                continue;
            }
            $line .= $chunk;
            if (str_ends_with($line, "\n")) {
                return rtrim($line, "\n");
            }
        }
    }
}

function nlb_rss_kb(): int
{
    return preg_match('/^VmRSS:\s+(\d+)/m', (string) file_get_contents('/proc/self/status'), $m) ? (int) $m[1] : -1;
}
