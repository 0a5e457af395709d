<?php

declare(strict_types=1);

namespace Nativelock\Bridge\PhpLock;

use Nativelock\FileBackend;
use Nativelock\LockException;

/**
 * A mutex on the Filelock protocol (NFS-safe, a dead owner's lock is broken): a lock file
 * "<directory>/<name>.lock" (the name with non-word characters as "_", as Filelock does), so it
 * excludes Filelock objects of the same name. No lease: the lock lasts until unlock() (or the
 * owner's death, or request end); $timeout bounds the wait only.
 */
final class FilelockMutex extends NativeMutex
{
    public function __construct(string|FileBackend $directory, string $name, int $timeout = 3)
    {
        if (!$directory instanceof FileBackend) {
            if ('' === $directory || !is_dir($directory)) {
                throw new \InvalidArgumentException(sprintf('The lock directory "%s" does not exist.', $directory));
            }
            try {
                $directory = new FileBackend($directory);
            } catch (LockException|\ValueError $e) {
                throw new \InvalidArgumentException($e->getMessage(), 0, $e);
            }
        }
        if ('' === $name) {
            throw new \InvalidArgumentException('The lock name must not be empty.');
        }
        parent::__construct($directory, $name, $timeout, null);
    }
}
