// Shared pieces of the SharedLock shim (sharedlock*.cpp): class entries, the PHP-call guard
// and the exception builder.
#pragma once

#include "php_nativelock.h"

#include <exception>
#include <string>

#include "mysql/session.hpp"

namespace nativelock::php::sharedlock {

extern zend_class_entry *ce_shared_lock;
extern zend_class_entry *ce_handle;
extern zend_class_entry *ce_exception;
extern zend_class_entry *ce_acquire;
extern zend_class_entry *ce_timeout;
extern zend_class_entry *ce_release;
extern zend_class_entry *ce_remaining_ttl;
extern zend_class_entry *ce_table_repair;

// A PHP fatal error (bailout) happened inside a guarded PHP call: unwind the C++ frames, then
// the entry point calls zend_bailout().
class PhpBailout : public std::exception {
  public:
    const char *what() const noexcept override { return "PHP bailout"; }
};

enum class CallStatus { Ok, Exception, Bailout };

// Calls fn on object (or a constructor) inside zend_try; never longjmps out.
CallStatus guarded_call(zend_object *object, zend_function *fn, zval *retval, uint32_t argc,
                        zval *argv);
// Calls $object->method(...) by name; throws PhpBailout, or stashes a PHP exception and
// throws a C++ error describing it (SqlError for a PDOException).
void call_method(zend_object *object, const char *method, zval *retval, uint32_t argc, zval *argv);

// The PHP exception a failed PHP call left, kept as the `previous` of the exception the
// entry point throws. take_previous() hands over the reference (or nullptr).
void stash_exception(zend_object *exception);
zend_object *take_previous();
void drop_previous();

// Throws new ce($lockName[, $extra], $message, 0, $previous); consumes `previous`.
void throw_lock_exception(zend_class_entry *ce, zval *lock_name, zval *extra,
                          const std::string &message, zend_object *previous);

// The PDO-backed session (sharedlock_pdo_session.cpp).
class PdoSession : public nativelock::mysql::Session {
  public:
    explicit PdoSession(zend_object *pdo);
    ~PdoSession() override;
    nativelock::mysql::Result execute(const std::string &sql,
                                      const std::vector<nativelock::mysql::Param> &params,
                                      bool prepared, bool want_rows) override;
    zend_object *pdo() const { return pdo_; }

  private:
    zend_object *pdo_;
    HashTable statements_;
};

void minit_exceptions();

}  // namespace nativelock::php::sharedlock
