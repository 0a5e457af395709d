<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Symfony;

use Nativelock\FileBackend;
use Nativelock\LockException;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Key;

/**
 * The Filelock protocol (hard links, NFS-safe, a provably dead owner's lock is broken) as a
 * Symfony store: exclusive, blocking (waitAndSave() waits natively: inotify locally, a short poll
 * for other NFS clients), keys are not serializable, no expiry (the owner's death ends a lock;
 * putOffExpiration() only checks the lock is still held).
 *
 * No shared (read) locks: there is no race-free, NFS-safe shared scheme on the hard-link
 * protocol, so this store does not implement SharedLockStoreInterface (Symfony's Lock then
 * falls back to an exclusive lock for acquireRead()).
 *
 * A resource made of word characters only (`[A-Za-z0-9_]`, at most 200 bytes) is the Filelock
 * name itself — `new Key('report')` and `new Filelock('report')` on the same directory exclude
 * each other. Any other resource is sanitized and suffixed with a hash of it, as FlockStore does,
 * so two resources never share a file.
 */
final class FilelockStore implements BlockingStoreInterface
{
    use NativeStoreTrait;

    /**
     * @param string|FileBackend|null $lockPath the directory of the lock files (created if
     *        missing), a FileBackend, or null for sys_get_temp_dir()
     */
    public function __construct(string|FileBackend|null $lockPath = null)
    {
        if ($lockPath instanceof FileBackend) {
            $this->backend = $lockPath;
        } else {
            $lockPath ??= sys_get_temp_dir();
            if ('' === $lockPath || str_contains($lockPath, "\0")) {
                throw new InvalidArgumentException('The FilelockStore directory must be a non-empty path without NUL bytes.');
            }
            if (!is_dir($lockPath)) {
                if (false === @mkdir($lockPath, 0777, true) && !is_dir($lockPath)) {
                    throw new InvalidArgumentException(sprintf('The FilelockStore directory "%s" does not exists and cannot be created.', $lockPath));
                }
            } elseif (!is_writable($lockPath)) {
                throw new InvalidArgumentException(sprintf('The FilelockStore directory "%s" is not writable.', $lockPath));
            }
            try {
                $this->backend = new FileBackend($lockPath);
            } catch (LockException|\ValueError $e) {
                throw new InvalidArgumentException(sprintf('The FilelockStore directory "%s" cannot be used: %s', $lockPath, $e->getMessage()), 0, $e);
            }
        }
        $this->initialTtl = null;
    }

    public function getBackend(): FileBackend
    {
        return $this->backend;
    }

    /** The Filelock name for a resource (the file is "<directory>/<name>.lock"). */
    public static function lockNameFor(string $resource): string
    {
        if (1 === preg_match('/^\w{1,200}$/D', $resource)) {
            return $resource;
        }
        $hash = strtr(substr(base64_encode(hash('sha256', $resource, true)), 0, 11), '+/', '-_');

        return 'sf_'.substr((string) preg_replace('/\W+/', '_', $resource), 0, 50).'_'.preg_replace('/\W/', '_', $hash);
    }

    private function lockName(Key $key): string
    {
        return self::lockNameFor((string) $key);
    }

    private function keysSerializable(): bool
    {
        return false; // a file lock belongs to this process
    }
}
