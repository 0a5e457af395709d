// Turning core errors into PHP exceptions. Every PHP entry point runs core code inside
// `try { … } catch (...) { throw_php_exception(...); }`, so no C++ exception reaches Zend.
#pragma once

extern "C" {
#include "php.h"
}

#include <exception>

namespace nativelock::php {

// Throws the PHP exception for the C++ exception being handled (call only from a catch block):
// InvalidArgument → ValueError; anything else → `fallback` (RuntimeException if null),
// with the core's message prefixed by `context` when given.
void throw_current_exception(zend_class_entry *fallback, const char *context = nullptr) noexcept;

}  // namespace nativelock::php

#define NL_TRY try {
#define NL_CATCH(fallback, context)                                      \
    }                                                                    \
    catch (...) {                                                        \
        nativelock::php::throw_current_exception((fallback), (context)); \
        RETURN_THROWS();                                                 \
    }
