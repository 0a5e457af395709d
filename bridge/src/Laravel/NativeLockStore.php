<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Laravel;

use Illuminate\Cache\NullStore;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;
use Nativelock\Backend;
use Nativelock\Bridge\MysqlLockName;
use Nativelock\Bridge\RedisClient;
use Nativelock\FileBackend;
use Nativelock\LockException;
use Nativelock\MysqlBackend;
use Nativelock\RedisBackend;

/**
 * A cache store whose locks are nativelock's (the lock provider behind Cache::lock(),
 * withoutOverlapping(), WithoutOverlapping, ShouldBeUnique, funnel) and whose cache operations go
 * to another store (typically the application's redis store, whose prefix it shares, so that a
 * lock "x" is the same Redis key "<prefix>x" that Laravel's RedisLock uses, after the Redis
 * client's own prefix — options.prefix, phpredis OPT_PREFIX — which the client adds there).
 * On MySQL, names longer than its 64 characters become a prefix and a hash.
 *
 * Register it with the service provider (driver "nativelock") or by hand:
 *   Cache::extend('nativelock', fn ($app, $config) => Cache::repository(NativeLockStore::fromConfig($config, Cache::store($config['store'] ?? null)->getStore())));
 */
class NativeLockStore implements Store, LockProvider
{
    /** The longest key a FileBackend lock takes (its lock file's name has room for no more). */
    private const MAX_FILE_KEY_BYTES = 217;

    private Backend $backend;
    private Store $inner;
    private string $prefix;
    private bool $releaseAtRequestEnd;
    /** The Redis client's own key prefix, which nativelock (copying only its connection) does not add. */
    private string $clientPrefix = '';

    /**
     * @param \Redis|\Predis\ClientInterface|null $client on Redis, the client Laravel's RedisLock
     *        would use: its key prefix goes before every key, and it must not serialize or
     *        compress values (InvalidArgumentException); null: the lock connection of $inner if
     *        that is Laravel's RedisStore
     */
    public function __construct(Backend $backend, ?Store $inner = null, ?string $prefix = null, bool $releaseAtRequestEnd = false, mixed $client = null)
    {
        if ($backend instanceof RedisBackend && RedisBackend::FORMAT_PLAIN !== $backend->getFormat()) {
            throw new \InvalidArgumentException(sprintf('Laravel locks need a RedisBackend in FORMAT_PLAIN (Laravel\'s RedisLock wire format), "%s" given.', $backend->getFormat()));
        }
        $this->backend = $backend;
        $this->inner = $inner ?? new NullStore();
        $this->prefix = $prefix ?? (string) $this->inner->getPrefix();
        $this->releaseAtRequestEnd = $releaseAtRequestEnd;
        if ($backend instanceof RedisBackend) {
            if (null === $client && $this->inner instanceof \Illuminate\Cache\RedisStore) {
                $client = $this->inner->lockConnection()->client();
            }
            // Laravel's RedisLock stores the owner with SET through this client, which would
            // serialize or compress it: nativelock's plain owner would not match.
            RedisClient::checkPlainValues($client, 'The nativelock cache store');
            $this->clientPrefix = RedisClient::keyPrefix($client);
        }
    }

    /**
     * Builds the store from a config/cache.php entry:
     *   'driver' => 'nativelock',
     *   'backend' => 'redis' | 'file' | 'mysql',
     *   'url' => 'redis://127.0.0.1:6379/0',    // redis: a DSN (or 'connection' => a \Redis / Predis client)
     *   'path' => storage_path('framework/locks'), // file
     *   'dsn' => 'mysql:host=…;dbname=…', 'username' => …, 'password' => …, 'table' => 'shared_locks', // mysql
     *   'pdo' => a \PDO (e.g. DB::connection()->getPdo()),   // mysql instead of 'dsn': the locks live
     *                                                       // in that session (see MysqlBackend)
     *   'store' => 'redis',                     // the store for cache operations (and its prefix)
     *   'prefix' => …,                          // overrides the inner store's prefix
     *   'release_at_request_end' => false,
     *
     * @param array<string, mixed> $config
     */
    public static function fromConfig(array $config, ?Store $inner = null): self
    {
        $kind = $config['backend'] ?? null;
        $client = null;
        try {
            switch ($kind) {
                case 'redis':
                    $connection = $config['connection'] ?? $config['url'] ?? null;
                    if (null === $connection && $inner instanceof \Illuminate\Cache\RedisStore) {
                        $connection = $inner->lockConnection()->client();
                    }
                    $client = \is_object($connection) ? $connection : null;
                    if (null === $connection) {
                        throw new \InvalidArgumentException('The nativelock cache store on Redis needs "url" (a redis:// DSN), "connection" (a \Redis or Predis client) or a redis "store".');
                    }
                    $backend = new RedisBackend($connection, RedisBackend::FORMAT_PLAIN);
                    break;
                case 'file':
                    $path = $config['path'] ?? null;
                    if (!\is_string($path) || '' === $path) {
                        throw new \InvalidArgumentException('The nativelock cache store on files needs "path" (the lock directory).');
                    }
                    if (!is_dir($path) && !@mkdir($path, 0777, true) && !is_dir($path)) {
                        throw new \InvalidArgumentException(sprintf('The lock directory "%s" does not exist and cannot be created.', $path));
                    }
                    $backend = new FileBackend($path);
                    break;
                case 'mysql':
                    $pdo = $config['pdo'] ?? null;
                    if ($pdo instanceof \PDO) {
                        $backend = new MysqlBackend($pdo, null, null, $config['table'] ?? 'shared_locks');
                        break;
                    }
                    if (null !== $pdo || !\is_string($config['dsn'] ?? null)) {
                        throw new \InvalidArgumentException('The nativelock cache store on MySQL needs "dsn" ("mysql:host=…;dbname=…"), "username" and "password"; or "pdo" (a \PDO).');
                    }
                    $backend = new MysqlBackend($config['dsn'], $config['username'] ?? null, $config['password'] ?? null, $config['table'] ?? 'shared_locks');
                    break;
                default:
                    throw new \InvalidArgumentException(sprintf('The nativelock cache store needs "backend" => "redis", "file" or "mysql", %s given.', \is_string($kind) ? '"'.$kind.'"' : get_debug_type($kind)));
            }
        } catch (LockException|\ValueError $e) {
            throw new \InvalidArgumentException(sprintf('The nativelock cache store cannot use its %s backend: %s', $kind, $e->getMessage()), 0, $e);
        }

        return new self($backend, $inner, $config['prefix'] ?? null, (bool) ($config['release_at_request_end'] ?? false), $client);
    }

    /**
     * @param string $name
     * @param int $seconds 0 = no expiry
     * @param string|null $owner
     */
    public function lock($name, $seconds = 0, $owner = null)
    {
        return new NativeLock($this->backend, $this->key((string) $name), $seconds, $owner, $this->releaseAtRequestEnd);
    }

    /** The backend's key for a lock name: what Laravel's own lock of this store would use. */
    private function key(string $name): string
    {
        if ($this->backend instanceof MysqlBackend) {
            // MySQL takes 64 characters, and ShouldBeUnique/WithoutOverlapping keys run longer:
            // the mapping of the Symfony and php-lock adapters (a prefix and a hash).
            return MysqlLockName::for($this->prefix.$name);
        }

        $key = $this->clientPrefix.$this->prefix.$name;
        if ($this->backend instanceof FileBackend && '' !== $key // NativeLock refuses an empty one
            && (\strlen($key) > self::MAX_FILE_KEY_BYTES || 1 !== preg_match('/^\w+$/D', $key))) {
            // Filelock names the file after the key with every other byte than [A-Za-z0-9_] as
            // "_": "a:b" and "a_b" would be one lock file, and forceRelease() of one would free
            // the other's holder. And a lock file's name has room for 217 bytes (ShouldBeUnique
            // job keys can be longer). Such keys become a readable prefix and a hash of the
            // whole key (until 2026-12-08 only the long ones did).
            $hash = rtrim(strtr(base64_encode(hash('sha256', $key, true)), '+/', '-_'), '=');

            return substr($key, 0, 64).'~'.$hash;
        }

        return $key;
    }

    /**
     * @param string $name
     * @param string $owner
     */
    public function restoreLock($name, $owner)
    {
        if (!\is_string($owner) || '' === $owner) {
            throw new \InvalidArgumentException(sprintf('restoreLock("%s"): the owner must be the non-empty string owner() returned.', $name));
        }

        return $this->lock($name, 0, $owner);
    }

    public function getBackend(): Backend
    {
        return $this->backend;
    }

    public function getInnerStore(): Store
    {
        return $this->inner;
    }

    // Cache operations: the inner store's.

    public function get($key)
    {
        return $this->inner->get($key);
    }

    public function many(array $keys)
    {
        return $this->inner->many($keys);
    }

    public function put($key, $value, $seconds)
    {
        return $this->inner->put($key, $value, $seconds);
    }

    public function putMany(array $values, $seconds)
    {
        return $this->inner->putMany($values, $seconds);
    }

    public function increment($key, $value = 1)
    {
        return $this->inner->increment($key, $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->inner->decrement($key, $value);
    }

    public function forever($key, $value)
    {
        return $this->inner->forever($key, $value);
    }

    public function forget($key)
    {
        return $this->inner->forget($key);
    }

    public function flush()
    {
        return $this->inner->flush();
    }

    public function getPrefix()
    {
        return $this->prefix;
    }
}
