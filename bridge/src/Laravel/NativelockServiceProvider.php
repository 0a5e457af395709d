<?php

declare(strict_types=1);

namespace Nativelock\Bridge\Laravel;

use Illuminate\Support\ServiceProvider;

/**
 * Registers the cache driver "nativelock" (see NativeLockStore::fromConfig() for its config keys).
 * Add it to config/app.php "providers" (Composer's package discovery does it for you).
 */
class NativelockServiceProvider extends ServiceProvider
{
    public function boot(): void
    {
        $this->app['cache']->extend('nativelock', function ($app, array $config) {
            /** @var \Illuminate\Cache\CacheManager $this */
            $inner = isset($config['store']) ? $this->store($config['store'])->getStore() : null;

            return $this->repository(NativeLockStore::fromConfig($config, $inner));
        });
    }
}
