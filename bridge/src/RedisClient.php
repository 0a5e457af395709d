<?php

declare(strict_types=1);

namespace Nativelock\Bridge;

/**
 * What a phpredis or Predis client given to an adapter does to keys and values. nativelock copies
 * only a client's connection settings, so the adapters apply the client's key prefix themselves:
 * the keys must be those the stock classes write through that client.
 *
 * @internal
 */
final class RedisClient
{
    /**
     * The prefix the client puts before every key (phpredis \Redis::OPT_PREFIX, Predis "prefix"),
     * also before the KEYS of EVAL; '' for anything that is not a client (a DSN, a backend).
     *
     * @throws \InvalidArgumentException for a Predis key processor whose prefix cannot be read
     */
    public static function keyPrefix(mixed $client): string
    {
        if ($client instanceof \Redis) {
            return (string) $client->getOption(\Redis::OPT_PREFIX);
        }
        if (interface_exists(\Predis\ClientInterface::class) && $client instanceof \Predis\ClientInterface) {
            $processor = $client->getOptions()->prefix ?? null;
            if (null === $processor) {
                return '';
            }
            if (!\is_object($processor) || !method_exists($processor, 'getPrefix')) {
                throw new \InvalidArgumentException(sprintf('The Predis client\'s "prefix" option is a %s whose prefix cannot be read; nativelock needs a plain key prefix (Predis\Command\Processor\KeyPrefixProcessor).', get_debug_type($processor)));
            }

            return (string) $processor->getPrefix();
        }

        return '';
    }

    /**
     * Refuses a phpredis client that serializes or compresses values: stock classes that store
     * their owner with SET through it (Laravel's RedisLock) would store another value than
     * nativelock, and releasing each other's locks by owner would silently fail.
     *
     * @throws \InvalidArgumentException
     */
    public static function checkPlainValues(mixed $client, string $who): void
    {
        if (!$client instanceof \Redis) {
            return; // Predis neither serializes nor compresses
        }
        if (\Redis::SERIALIZER_NONE !== $client->getOption(\Redis::OPT_SERIALIZER)) {
            throw new \InvalidArgumentException(sprintf('%s cannot use a \Redis client with a serializer (Redis::OPT_SERIALIZER): the owner it stores would not be the one nativelock stores. Use a client without one for locks (Laravel: a "lock_connection" without "serializer").', $who));
        }
        if (\defined('Redis::OPT_COMPRESSION') && \Redis::COMPRESSION_NONE !== $client->getOption(\Redis::OPT_COMPRESSION)) {
            throw new \InvalidArgumentException(sprintf('%s cannot use a \Redis client with compression (Redis::OPT_COMPRESSION): the owner it stores would not be the one nativelock stores. Use a client without it for locks (Laravel: a "lock_connection" without "compression").', $who));
        }
    }
}
