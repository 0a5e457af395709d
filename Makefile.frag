# `make test` runs tests/phpt with the module just built, next to the system's shared
# extensions (phpredis, pdo_mysql: the interop tests use them), not only those in modules/.
NATIVELOCK_SYSTEM_EXTENSION_DIR := $(shell $(PHP_EXECUTABLE) -d display_errors=stderr -r 'echo ini_get("extension_dir");' 2>/dev/null)
PHP_TEST_SHARED_EXTENSIONS = -d extension_dir=$(NATIVELOCK_SYSTEM_EXTENSION_DIR) -d extension=$(top_builddir)/modules/nativelock.so
TESTS ?= $(top_srcdir)/tests/phpt
