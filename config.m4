dnl nativelock: native lock classes (Filelock, RedisLock, SharedLock) for PHP.

PHP_ARG_ENABLE([nativelock],
  [whether to enable nativelock],
  [AS_HELP_STRING([--enable-nativelock], [Enable nativelock (Filelock, RedisLock, SharedLock)])],
  [yes])

PHP_ARG_ENABLE([nativelock-dev],
  [whether to build nativelock with warnings as errors],
  [AS_HELP_STRING([--enable-nativelock-dev], [nativelock: -Werror and debug info])],
  [no], [no])

if test "$PHP_NATIVELOCK" != "no"; then
  PHP_REQUIRE_CXX()
  PHP_CXX_COMPILE_STDCXX(17, mandatory, PHP_NATIVELOCK_STDCXX)

  AC_PATH_PROG(PKG_CONFIG, pkg-config, no)
  if test "$PKG_CONFIG" = "no"; then
    AC_MSG_ERROR([pkg-config not found: install it (Debian: apt-get install pkg-config)])
  fi

  dnl hiredis (RedisLock)
  AC_MSG_CHECKING([for hiredis])
  if $PKG_CONFIG --exists hiredis; then
    HIREDIS_VERSION=`$PKG_CONFIG --modversion hiredis`
    AC_MSG_RESULT([found $HIREDIS_VERSION])
    PHP_EVAL_INCLINE(`$PKG_CONFIG --cflags hiredis`)
    PHP_EVAL_LIBLINE(`$PKG_CONFIG --libs hiredis`, NATIVELOCK_SHARED_LIBADD)
  else
    AC_MSG_RESULT([no])
    AC_MSG_ERROR([hiredis not found by pkg-config: install it (Debian: apt-get install libhiredis-dev)])
  fi

  dnl MariaDB Connector/C or libmysqlclient (SharedLock)
  AC_MSG_CHECKING([for a MySQL client library])
  NATIVELOCK_MYSQL_PC=""
  for pc in libmariadb mysqlclient mariadb; do
    if $PKG_CONFIG --exists $pc; then
      NATIVELOCK_MYSQL_PC=$pc
      break
    fi
  done
  if test -n "$NATIVELOCK_MYSQL_PC"; then
    AC_MSG_RESULT([$NATIVELOCK_MYSQL_PC `$PKG_CONFIG --modversion $NATIVELOCK_MYSQL_PC`])
    PHP_EVAL_INCLINE(`$PKG_CONFIG --cflags $NATIVELOCK_MYSQL_PC`)
    PHP_EVAL_LIBLINE(`$PKG_CONFIG --libs $NATIVELOCK_MYSQL_PC`, NATIVELOCK_SHARED_LIBADD)
  else
    AC_MSG_RESULT([no])
    AC_MSG_ERROR([no MySQL client library found by pkg-config: install libmariadb-dev (or default-libmysqlclient-dev)])
  fi

  NATIVELOCK_CXXFLAGS="$PHP_NATIVELOCK_STDCXX -Wall -Wextra -fvisibility=hidden -I@ext_srcdir@/ext/core -I@ext_srcdir@/ext/php -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1"
  if test "$PHP_NATIVELOCK_DEV" != "no"; then
    NATIVELOCK_CXXFLAGS="$NATIVELOCK_CXXFLAGS -Werror -g"
  fi

  dnl Every .cpp of the core and the shim; new files are picked up without editing this list.
  NATIVELOCK_SOURCES=`cd "$srcdir" && ls ext/core/*/*.cpp ext/php/*.cpp | tr '\n' ' '`

  PHP_NEW_EXTENSION(nativelock, $NATIVELOCK_SOURCES, $ext_shared, , $NATIVELOCK_CXXFLAGS, cxx)
  PHP_ADD_BUILD_DIR($ext_builddir/ext/core/common)
  PHP_ADD_BUILD_DIR($ext_builddir/ext/core/file)
  PHP_ADD_BUILD_DIR($ext_builddir/ext/core/redis)
  PHP_ADD_BUILD_DIR($ext_builddir/ext/core/mysql)
  PHP_ADD_BUILD_DIR($ext_builddir/ext/php)
  PHP_ADD_LIBRARY(stdc++, 1, NATIVELOCK_SHARED_LIBADD)
  PHP_SUBST(NATIVELOCK_SHARED_LIBADD)
  PHP_ADD_EXTENSION_DEP(nativelock, spl)
  PHP_ADD_MAKEFILE_FRAGMENT
fi
