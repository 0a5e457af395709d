// MySQL sessions that belong to an application's PDO: SharedLock's PDO driver and
// Nativelock\MysqlBackend built on a \PDO run the lock protocol through them
// (sharedlock_pdo_session.cpp).
//
// Two ways in: PdoSession calls the PDO's PHP methods (prepare, execute: a subclass's overrides
// run, and so may PHP signal handlers), for a request in progress; DriverSession goes through
// the pdo_dbh_t's driver methods with no PHP call at all, for request end (after a fatal error
// no PHP code may run).
#pragma once

#include "php_nativelock.h"

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "exceptions.h"
#include "common/process.hpp"
#include "mysql/session.hpp"

namespace nativelock::php::sharedlock {

// A PHP fatal error (bailout) happened inside a guarded PHP call: unwind the C++ frames, then
// the entry point calls zend_bailout() (NL_CATCH_WITH does).
using PhpBailout = nativelock::php::BailoutPending;

enum class CallStatus { Ok, Exception, Bailout };

// Calls fn on object (or a constructor) inside zend_try; never longjmps out.
CallStatus guarded_call(zend_object *object, zend_function *fn, zval *retval, uint32_t argc,
                        zval *argv);
// Calls $object->method(...) by name; throws PhpBailout, or stashes a PHP exception and
// throws a C++ error describing it (SqlError for a PDOException).
void call_method(zend_object *object, const char *method, zval *retval, uint32_t argc, zval *argv);

// A PHP signal handler runs inside PDO calls (zend_call_function runs pending interrupts after
// an internal method returns). What it throws, or its exit(), is not a database error: it is
// kept here, the statement sequence stops at a consistent point, and the entry point throws it
// again as it was. ThrowablePending unwinds the C++ frames when the PDO call itself failed.
class ThrowablePending : public std::exception {
  public:
    const char *what() const noexcept override { return "PHP throwable pending"; }
};
void defer_throwable(zend_object *throwable);
bool has_deferred_throwable();
// Throws the deferred throwable in PHP (after dropping any stashed `previous`); returns whether
// there was one.
bool rethrow_deferred_throwable();
void drop_deferred_throwable();
// After a PHP call (inside zend_try) that left EG(exception): clears it and returns the
// PDOException (a reference the caller owns); returns nullptr when the call completed (a
// return value) and a handler threw after it: deferred, the caller goes on; any other throwable
// of a call that failed is deferred and ThrowablePending thrown.
zend_object *pdo_exception_or_defer(const zval *retval);

// The PHP exception a failed PHP call left, kept as the `previous` of the exception the
// entry point throws. take_previous() hands over the reference (or nullptr).
void stash_exception(zend_object *exception);
zend_object *take_previous();
void drop_previous();

// Statements through the PDO's PHP methods; keeps a reference to the PDO. A PDO in
// ERRMODE_WARNING throws instead while a statement runs (no warnings from the lock protocol's
// expected failures reach the application; code a signal handler runs meanwhile sees
// ERRMODE_EXCEPTION). A signal handler that forks inside a call leaves the child with its
// parent's session: the child's copy is cut off from the socket and the statement fails there.
class PdoSession : public nativelock::mysql::Session {
  public:
    explicit PdoSession(zend_object *pdo);
    ~PdoSession() override;
    nativelock::mysql::Result execute(const std::string &sql,
                                      const std::vector<nativelock::mysql::Param> &params,
                                      bool prepared, bool want_rows) override;
    zend_object *pdo() const { return pdo_; }
    // A statement is running: user code it runs (a PDO subclass, a signal handler) must not
    // destroy this session under it.
    bool running() const { return running_ > 0; }
    // After the object store was freed: the PDO and the prepared statements are gone, and
    // destruction must not touch them.
    void abandon() {
        statements_.pDestructor = nullptr;
        pdo_ = nullptr;
    }

  private:
    nativelock::mysql::Result run_statement(const std::string &sql,
                                            const std::vector<nativelock::mysql::Param> &params,
                                            bool prepared, bool want_rows);

    // call_method(), then: a fork inside the call (by a signal handler) cuts the child off.
    void call(zend_object *object, const char *method, zval *retval, uint32_t argc, zval *argv);

    zend_object *pdo_;
    HashTable statements_;
    nativelock::process::Tag statement_owner_;  // the process the running statement began in
    int running_ = 0;  // statements running (nested: user code may lock meanwhile)
};

// Statements through the PDO's own driver (quoter, doer), for request end: no PHP method call
// (a user subclass of PDO cannot run here) and no exception into Zend. Reads no result rows: a
// statement that needs one throws, which ends that release. Null if the PDO cannot do this.
std::unique_ptr<nativelock::mysql::Session> driver_session(zend_object *pdo);

// Whether `object` is a PDO connected through pdo_mysql.
bool is_mysql_pdo(zend_object *object);

// In a forked child: the PDO shares its socket with the parent, and destroying it sends
// COM_QUIT on that socket, which ends the parent's session and every lock the parent holds.
// Points the child's copy of the descriptor at /dev/null and marks the connection as quit, so
// that nothing is ever sent on it from here. No-op for persistent or non-MySQL PDOs.
void detach_inherited_pdo(zend_object *object) noexcept;

}  // namespace nativelock::php::sharedlock
