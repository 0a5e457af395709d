#include "exceptions.h"

#include <string>

extern "C" {
#include "Zend/zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
}

#include "common/error.hpp"

namespace nativelock::php {

void throw_current_exception(zend_class_entry *fallback, const char *context) noexcept {
    try {
        try {
            throw;
        } catch (const InvalidArgument &e) {
            zend_value_error("%s", e.what());
        } catch (const std::bad_alloc &) {
            zend_throw_error(nullptr, "nativelock: out of memory");
        } catch (const std::exception &e) {
            std::string message = context ? std::string(context) + ": " + e.what() : e.what();
            zend_throw_exception(fallback ? fallback : spl_ce_RuntimeException, message.c_str(), 0);
        } catch (...) {
            zend_throw_exception(fallback ? fallback : spl_ce_RuntimeException,
                                 "nativelock: unknown internal error", 0);
        }
    } catch (...) {
        // Building the message itself failed; the exception above is all we can do.
        zend_throw_error(nullptr, "nativelock: internal error");
    }
}

}  // namespace nativelock::php
