#!/usr/bin/env bash
# Installs every Debian 12 package nativelock needs to build, test, benchmark and demo.
set -euo pipefail
packages=(
    build-essential pkg-config cmake clang-format
    php8.2-dev php8.2-cli php8.2-fpm libfcgi-bin
    libhiredis-dev libmariadb-dev
    redis-server redis-tools mariadb-server mariadb-client
    php8.2-mysql php-redis php-symfony-lock php-parser phpunit
    php-illuminate-cache php-illuminate-redis php-malkusch-lock php-predis
    googletest libgtest-dev libbenchmark-dev
    valgrind gnuplot-nox procps
    clang libclang-rt-14-dev
    bindfs fuse3
)
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
# The packaged services are not used: tests and the demo start their own on other ports.
for svc in redis-server mariadb; do
    $SUDO systemctl disable --now "$svc" >/dev/null 2>&1 || true
done
