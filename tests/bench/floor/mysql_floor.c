/* The floor for SharedLock: the two raw statements a MySQL named lock cannot do without,
 * SELECT GET_LOCK(name, 0) and SELECT RELEASE_LOCK(name), through MariaDB Connector/C (text
 * protocol, one round trip each).
 * usage: mysql_floor HOST PORT USER PASS DB ITERATIONS  -> prints microseconds per cycle */
#include <mysql.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long scalar(MYSQL *m, const char *sql) {
    if (mysql_real_query(m, sql, strlen(sql)) != 0) return -1;
    MYSQL_RES *res = mysql_store_result(m);
    if (!res) return -1;
    MYSQL_ROW row = mysql_fetch_row(res);
    long v = row && row[0] ? atol(row[0]) : -1;
    mysql_free_result(res);
    return v;
}

int main(int argc, char **argv) {
    if (argc < 7) return 2;
    MYSQL *m = mysql_init(NULL);
    if (!mysql_real_connect(m, argv[1], argv[3], argv[4], argv[5], atoi(argv[2]), NULL, 0)) {
        fprintf(stderr, "connect: %s\n", mysql_error(m));
        return 1;
    }
    long n = atol(argv[6]);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        if (scalar(m, "SELECT GET_LOCK('floor', 0)") != 1) return 1;
        if (scalar(m, "SELECT RELEASE_LOCK('floor')") != 1) return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
    mysql_close(m);
    return 0;
}
