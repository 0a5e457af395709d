// Placeholder until the redislock class lands: the module calls these hooks.
#include "php_nativelock.h"

void nativelock_redislock_minit(int) {}
void nativelock_redislock_rshutdown() {}
void nativelock_redislock_mshutdown() {}
void nativelock_redislock_minfo() {}
