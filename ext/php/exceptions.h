// The one path from core errors to PHP exceptions, for every entry point of every class.
//
// A C++ exception is taken apart inside its catch block into a PendingError: plain,
// trivially destructible data (a category and the message). The PHP exception is thrown only
// after the catch has ended, so no PHP code (an exception constructor, a user __toString, an
// allocation that may bail out) ever runs inside a C++ catch, and no C++ exception reaches
// Zend. Each class decides which PHP class a category becomes:
//
//   NL_TRY
//   ... core calls; RETURN_* on success ...
//   NL_CATCH(nullptr, "Filelock::lock()")         // one class for everything, with a prefix
//   NL_CATCH_WITH(redislock::throw_error)         // a per-class function of the category
//   NL_CATCH_WITH(throw_sharedlock_error, op, name)  // … with extra arguments
//
// Everywhere InvalidArgument becomes a ValueError and OutOfMemory an Error; a Bailout category
// (a PHP fatal error caught in zend_try below a C++ frame, rethrown as BailoutPending) makes
// NL_CATCH_WITH call zend_bailout() once the C++ frames are gone.
#pragma once

extern "C" {
#include "php.h"
}

#include <exception>
#include <type_traits>

namespace nativelock::php {

// What kind of error the core (or the shim's own C++ code) raised, by class of the exception.
enum class ErrorCategory : unsigned char {
    None,               // nothing was caught
    InvalidArgument,    // nativelock::InvalidArgument
    ConnectionError,    // nativelock::ConnectionError (mysql::SessionLost included)
    ProtocolError,      // nativelock::ProtocolError
    SystemError,        // nativelock::SystemError (code = errno)
    LockTimeout,        // mysql::LockTimeout
    AcquireFailed,      // mysql::AcquireFailed
    TableRepairFailed,  // mysql::TableRepairFailed
    SqlError,           // mysql::SqlError (code = server error number)
    Bailout,            // BailoutPending: call zend_bailout() after unwinding
    OutOfMemory,        // std::bad_alloc (no message)
    Other,              // any other std::exception
    Unknown,            // not a std::exception (no message)
};

// Thrown through C++ frames when a PHP call made inside zend_try bailed out (a fatal error):
// the entry point calls zend_bailout() once every C++ object is destroyed.
class BailoutPending : public std::exception {
  public:
    const char *what() const noexcept override { return "PHP bailout"; }
};

// A caught C++ exception as plain data. No destructor: it may live across PHP calls and a
// longjmp.
struct PendingError {
    ErrorCategory category = ErrorCategory::None;
    long code = 0;  // errno of a SystemError, server error number of a SqlError
    // what(), truncated to fit; empty for OutOfMemory and Unknown. Not zero-filled: one is made
    // on every method call, and a zero-filled one cost an 8 KB memset (and as much of the data
    // cache) each time; capture_current_exception() writes it whole before anything reads it.
    char message[8192];
    PendingError() noexcept { message[0] = '\0'; }
    explicit operator bool() const { return category != ErrorCategory::None; }
};
static_assert(std::is_trivially_destructible_v<PendingError>);

// Call only inside a catch block: records the exception being handled. Never throws, never
// calls PHP, never allocates.
void capture_current_exception(PendingError &out) noexcept;

// Throws a PendingError as `ce` (call outside any catch block); returns whether `error` was
// set. InvalidArgument → ValueError and OutOfMemory → Error whatever `ce` is; Unknown gets a
// fixed message; otherwise the message, prefixed with "`context`: " when context is given.
// Used by classes whose errors all become one PHP class, and by per-class mappings once they
// chose the class. Bailout is not thrown here (see NL_CATCH_WITH).
bool throw_pending_error_as(const PendingError &error, zend_class_entry *ce,
                            const char *context = nullptr) noexcept;

// Single-class mapping for NL_CATCH: everything else becomes `fallback` (RuntimeException if
// null).
bool throw_pending_error(const PendingError &error, zend_class_entry *fallback,
                         const char *context) noexcept;

}  // namespace nativelock::php

// Once per scope: NL_TRY declares the PendingError that carries the error past the catch.
#define NL_TRY                                 \
    nativelock::php::PendingError nl_pending_; \
    try {
// Closes NL_TRY; if something was caught, bails out for a Bailout category, otherwise calls
// `thrower(error, ...)` (which throws the PHP exception) and returns from the PHP function.
#define NL_CATCH_WITH(thrower, ...)                                            \
    }                                                                          \
    catch (...) {                                                              \
        nativelock::php::capture_current_exception(nl_pending_);               \
    }                                                                          \
    if (nl_pending_) {                                                         \
        if (nl_pending_.category == nativelock::php::ErrorCategory::Bailout) { \
            zend_bailout();                                                    \
        }                                                                      \
        thrower(nl_pending_, ##__VA_ARGS__);                                   \
        RETURN_THROWS();                                                       \
    }
// Every error as one PHP class (RuntimeException if `fallback` is null), messages prefixed by
// `context` when given.
#define NL_CATCH(fallback, context) \
    NL_CATCH_WITH(nativelock::php::throw_pending_error, (fallback), (context))
