<?php

declare(strict_types=1);

// The bridge's bootstrap, plus Symfony's test classes from the temporary directory run.sh filled.
require dirname(__DIR__).'/bootstrap.php';

$dir = getenv('NATIVELOCK_SF_TESTS');
if (!$dir || !is_dir($dir)) {
    fwrite(STDERR, "NATIVELOCK_SF_TESTS must name the directory run.sh extracted Symfony's tests into\n");
    exit(1);
}
spl_autoload_register(static function (string $class) use ($dir): void {
    $prefix = 'Symfony\\Component\\Lock\\Tests\\Store\\';
    if (str_starts_with($class, $prefix) && is_file($file = $dir.'/'.substr($class, strlen($prefix)).'.php')) {
        require $file;
    } elseif (str_starts_with($class, 'Nativelock\\Bridge\\Tests\\Conformance\\') && is_file($file = __DIR__.'/'.substr($class, strrpos($class, '\\') + 1).'.php')) {
        require $file;
    }
});
