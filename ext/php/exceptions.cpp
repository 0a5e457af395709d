#include "exceptions.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"
}

#include <cstdio>
#include <new>

#include "common/error.hpp"
#include "mysql/protocol.hpp"
#include "mysql/session.hpp"

namespace nativelock::php {

namespace {

void record(PendingError &out, ErrorCategory category, const char *message,
            long code = 0) noexcept {
    out.category = category;
    out.code = code;
    snprintf(out.message, sizeof out.message, "%s", message);
}

}  // namespace

void capture_current_exception(PendingError &out) noexcept {
    // Most derived classes first.
    try {
        throw;
    } catch (const BailoutPending &) {
        record(out, ErrorCategory::Bailout, "");
    } catch (const InvalidArgument &e) {
        record(out, ErrorCategory::InvalidArgument, e.what());
    } catch (const ConnectionError &e) {
        record(out, ErrorCategory::ConnectionError, e.what());
    } catch (const ProtocolError &e) {
        record(out, ErrorCategory::ProtocolError, e.what());
    } catch (const SystemError &e) {
        record(out, ErrorCategory::SystemError, e.what(), e.code());
    } catch (const mysql::LockTimeout &e) {
        record(out, ErrorCategory::LockTimeout, e.what());
    } catch (const mysql::AcquireFailed &e) {
        record(out, ErrorCategory::AcquireFailed, e.what());
    } catch (const mysql::TableRepairFailed &e) {
        record(out, ErrorCategory::TableRepairFailed, e.what());
    } catch (const mysql::SqlError &e) {
        record(out, ErrorCategory::SqlError, e.what(), static_cast<long>(e.code()));
    } catch (const std::bad_alloc &) {
        record(out, ErrorCategory::OutOfMemory, "");
    } catch (const std::exception &e) {
        record(out, ErrorCategory::Other, e.what());
    } catch (...) {
        record(out, ErrorCategory::Unknown, "");
    }
}

bool throw_pending_error_as(const PendingError &error, zend_class_entry *ce,
                            const char *context) noexcept {
    switch (error.category) {
        case ErrorCategory::None:
            return false;
        case ErrorCategory::InvalidArgument:
            zend_value_error("%s", error.message);
            return true;
        case ErrorCategory::OutOfMemory:
            zend_throw_error(nullptr, "nativelock: out of memory");
            return true;
        case ErrorCategory::Unknown:
            zend_throw_exception(ce, "nativelock: unknown internal error", 0);
            return true;
        default:
            if (context) {
                zend_throw_exception_ex(ce, 0, "%s: %s", context, error.message);
            } else {
                zend_throw_exception(ce, error.message, 0);
            }
            return true;
    }
}

bool throw_pending_error(const PendingError &error, zend_class_entry *fallback,
                         const char *context) noexcept {
    return throw_pending_error_as(error, fallback ? fallback : spl_ce_RuntimeException, context);
}

}  // namespace nativelock::php
