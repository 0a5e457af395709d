--TEST--
Native API: classes, methods and signatures as the stub declares them
--EXTENSIONS--
nativelock
--FILE--
<?php
foreach (['Nativelock\LockException', 'Nativelock\NotSupportedException', 'Nativelock\Backend',
          'Nativelock\RedisBackend', 'Nativelock\FileBackend', 'Nativelock\MysqlBackend', 'Nativelock\Lock'] as $name) {
    $c = new ReflectionClass($name);
    printf("%s%s%s extends %s\n", $c->isFinal() ? 'final ' : '', $c->isAbstract() ? 'abstract ' : '', $name,
        $c->getParentClass() ? $c->getParentClass()->getName() : '-');
    foreach ($c->getMethods() as $m) {
        if ($m->getDeclaringClass()->getName() !== $name) continue;
        $params = [];
        foreach ($m->getParameters() as $p) {
            $params[] = $p->getType() . ' $' . $p->getName()
                . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : '');
        }
        printf("  %s(%s)%s\n", $m->getName(), implode(', ', $params), $m->hasReturnType() ? ': ' . $m->getReturnType() : '');
    }
}
try { serialize(new Nativelock\FileBackend('/tmp')); } catch (Exception $e) { echo get_class($e), "\n"; }
try { clone new Nativelock\FileBackend('/tmp'); } catch (Error $e) { echo get_class($e), "\n"; }
?>
--EXPECT--
Nativelock\LockException extends RuntimeException
Nativelock\NotSupportedException extends Nativelock\LockException
abstract Nativelock\Backend extends -
  getName(): string
  supportsShared(): bool
final Nativelock\RedisBackend extends Nativelock\Backend
  __construct(mixed $connection, string $format = 'plain')
  getFormat(): string
  currentOwner(string $key): ?string
  forceRelease(string $key): bool
final Nativelock\FileBackend extends Nativelock\Backend
  __construct(string $directory)
  getDirectory(): string
final Nativelock\MysqlBackend extends Nativelock\Backend
  __construct(PDO|string $dsn, ?string $username = NULL, ?string $password = NULL, string $table = 'shared_locks')
  getTable(): string
  forceRelease(string $key): bool
final Nativelock\Lock extends -
  __construct(Nativelock\Backend $backend, string $key, ?string $token = NULL)
  acquire(?float $ttl = NULL, ?float $timeout = 0.0, bool $shared = false): bool
  refresh(float $ttl): bool
  release(): bool
  isHeld(): bool
  isAcquired(): bool
  setAutoRenew(bool $enabled = true): static
  isAutoRenewed(): bool
  getRemainingLifetime(): ?float
  detach(): void
  getKey(): string
  getToken(): string
  isShared(): bool
  getFencingToken(): int
  getBackend(): Nativelock\Backend
Exception
Error
