// Turning core errors into PHP exceptions. Every PHP entry point runs core code inside
// NL_TRY … NL_CATCH(fallback, context): the catch block only records the C++ exception as plain
// data; the PHP exception is thrown after the catch has ended, so no PHP code (an exception
// constructor, a user __toString) ever runs inside a C++ catch, and no C++ exception reaches Zend.
#pragma once

extern "C" {
#include "php.h"
}

#include <string>

namespace nativelock::php {

// A C++ exception, taken apart inside its catch block.
struct CaughtError {
    enum class Kind { None, InvalidArgument, OutOfMemory, Other, Unknown };
    Kind kind = Kind::None;
    std::string message;  // what(); empty for OutOfMemory and Unknown
    explicit operator bool() const { return kind != Kind::None; }
};

// Call only inside a catch block; never throws, never calls PHP.
CaughtError capture_current_exception() noexcept;

// Throws the PHP exception for `error` (call outside any catch block): InvalidArgument →
// ValueError; OutOfMemory → Error; anything else → `fallback` (RuntimeException if null), with
// the core's message prefixed by `context` when given.
void throw_php_exception(const CaughtError &error, zend_class_entry *fallback,
                         const char *context = nullptr) noexcept;

}  // namespace nativelock::php

// Once per scope: NL_TRY declares the variable that carries the error past the catch.
#define NL_TRY                               \
    nativelock::php::CaughtError nl_caught_; \
    try {
#define NL_CATCH(fallback, context)                                              \
    }                                                                            \
    catch (...) {                                                                \
        nl_caught_ = nativelock::php::capture_current_exception();               \
    }                                                                            \
    if (nl_caught_) {                                                            \
        nativelock::php::throw_php_exception(nl_caught_, (fallback), (context)); \
        RETURN_THROWS();                                                         \
    }
