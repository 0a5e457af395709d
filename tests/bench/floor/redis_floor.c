/* The floor for RedisLock: two raw round trips through hiredis per cycle, the ones a Redis lock
 * cannot do without: SET <key> <value> NX EX <ttl>, then DEL <key>.
 * usage: redis_floor HOST PORT ITERATIONS  -> prints microseconds per cycle */
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    redisContext *c = redisConnect(argv[1], atoi(argv[2]));
    if (c == NULL || c->err) {
        fprintf(stderr, "connect: %s\n", c ? c->errstr : "oom");
        return 1;
    }
    long n = atol(argv[3]);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        redisReply *r = redisCommand(c, "SET %s %s NX EX %d", "redislock:floor", "0123456789abcdef", 20);
        if (r == NULL || r->type != REDIS_REPLY_STATUS) return 1;
        freeReplyObject(r);
        r = redisCommand(c, "DEL %s", "redislock:floor");
        if (r == NULL || r->type != REDIS_REPLY_INTEGER || r->integer != 1) return 1;
        freeReplyObject(r);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
    redisFree(c);
    return 0;
}
