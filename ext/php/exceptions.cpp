#include "exceptions.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
}

#include "common/error.hpp"

namespace nativelock::php {

CaughtError capture_current_exception() noexcept {
    CaughtError error;
    try {
        try {
            throw;
        } catch (const InvalidArgument &e) {
            error.kind = CaughtError::Kind::InvalidArgument;
            error.message = e.what();
        } catch (const std::bad_alloc &) {
            error.kind = CaughtError::Kind::OutOfMemory;
        } catch (const std::exception &e) {
            error.kind = CaughtError::Kind::Other;
            error.message = e.what();
        } catch (...) {
            error.kind = CaughtError::Kind::Unknown;
        }
    } catch (...) {
        // Copying the message itself ran out of memory.
        error.kind = CaughtError::Kind::OutOfMemory;
        error.message.clear();
    }
    return error;
}

void throw_php_exception(const CaughtError &error, zend_class_entry *fallback,
                         const char *context) noexcept {
    zend_class_entry *ce = fallback ? fallback : spl_ce_RuntimeException;
    switch (error.kind) {
        case CaughtError::Kind::None:
            return;
        case CaughtError::Kind::InvalidArgument:
            zend_value_error("%s", error.message.c_str());
            return;
        case CaughtError::Kind::OutOfMemory:
            zend_throw_error(nullptr, "nativelock: out of memory");
            return;
        case CaughtError::Kind::Other:
            if (context) {
                zend_throw_exception_ex(ce, 0, "%s: %s", context, error.message.c_str());
            } else {
                zend_throw_exception(ce, error.message.c_str(), 0);
            }
            return;
        case CaughtError::Kind::Unknown:
            zend_throw_exception(ce, "nativelock: unknown internal error", 0);
            return;
    }
}

}  // namespace nativelock::php
