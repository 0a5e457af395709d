// Placeholder until the sharedlock class lands: the module calls these hooks.
#include "php_nativelock.h"

void nativelock_sharedlock_minit(int) {}
void nativelock_sharedlock_rshutdown() {}
void nativelock_sharedlock_mshutdown() {}
void nativelock_sharedlock_minfo() {}
void nativelock_sharedlock_rinit() {}
