<?php

declare(strict_types=1);

namespace Nativelock\Bridge;

/**
 * The MySQL lock name for a resource, shared by the Symfony, Laravel and php-lock adapters (so a
 * resource is the same lock in all three) without loading any framework's classes.
 *
 * @internal
 */
final class MysqlLockName
{
    /** Itself when it fits MySQL's 64 characters, else a prefix and a hash. */
    public static function for(string $resource): string
    {
        if (mb_strlen($resource, 'UTF-8') <= 64 && mb_check_encoding($resource, 'UTF-8') && !str_contains($resource, "\0")) {
            return $resource;
        }
        $hash = rtrim(strtr(base64_encode(hash('sha256', $resource, true)), '+/', '-_'), '=');

        return substr((string) preg_replace('/[^\x20-\x7e]/', '_', $resource), 0, 20).':'.$hash;
    }
}
