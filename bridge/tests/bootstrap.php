<?php

declare(strict_types=1);

// Offline autoloading: PSR-4 for the bridge and its tests, Debian's packages from /usr/share/php.
spl_autoload_register(static function (string $class): void {
    foreach (['Nativelock\\Bridge\\Tests\\' => __DIR__.'/', 'Nativelock\\Bridge\\' => dirname(__DIR__).'/src/'] as $prefix => $dir) {
        if (str_starts_with($class, $prefix)) {
            $file = $dir.str_replace('\\', '/', substr($class, strlen($prefix))).'.php';
            if (is_file($file)) {
                require $file;
            }

            return;
        }
    }
});

if (is_file(dirname(__DIR__).'/vendor/autoload.php')) {
    require dirname(__DIR__).'/vendor/autoload.php';
} else {
    foreach (['Symfony/Component/Lock/autoload.php', 'Illuminate/Cache/autoload.php', 'Illuminate/Redis/autoload.php', 'Malkusch/Lock/autoload.php', 'Predis/autoload.php'] as $file) {
        if (stream_resolve_include_path($file)) {
            require_once $file;
        }
    }
}

if (!extension_loaded('nativelock')) {
    fwrite(STDERR, "The nativelock extension is not loaded: run phpunit with -d extension=/path/to/nativelock.so\n");
    exit(1);
}
