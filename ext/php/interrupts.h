// Waiting and PHP signals (SPEC §2). A blocking call runs pending PHP signal handlers (pcntl
// async signals) while it waits, as the VM would between two statements, and then keeps
// waiting; a handler that throws or exits, or PHP's own timeout, ends the wait with that
// outcome; nothing else but the deadline ends a wait early.
//
// The core waits with `interrupt_pending` as its "stop waiting" test and returns when it is
// true. The shim then leaves every C++ scope of the wait and calls `run_pending_interrupts()`:
//   for (;;) {
//       Outcome outcome = wait_in_core(deadline, nativelock::php::interrupt_pending);
//       if (!outcome.interrupted) break;
//       if (nativelock::php::run_pending_interrupts() != KeepWaiting) break;  // see below
//   }
#pragma once

extern "C" {
#include "php.h"
}

namespace nativelock::php {

// True when the engine has something to run between statements (a pcntl signal handler, a
// max_execution_time timeout). Safe to call from the core's wait loops: no PHP code runs.
bool interrupt_pending() noexcept;

enum class AfterInterrupt {
    KeepWaiting,  // handlers ran and returned normally: wait on, same deadline
    Exception,    // a handler threw or called exit(): EG(exception) is set; return RETURN_THROWS
    Bailout,      // a fatal error (e.g. max_execution_time): destroy every C++ object still
                  // live, then call zend_bailout() from the entry point before returning
};

// Runs what is pending, as ZEND_VM_INTERRUPT does. Catches a bailout (fatal errors longjmp)
// so that C++ destructors between here and the entry point still run; the caller re-raises it.
AfterInterrupt run_pending_interrupts() noexcept;

}  // namespace nativelock::php

// In a PHP method's wait loop, with no C++ object with a destructor live: runs what is pending;
// returns from the method if a handler threw or exited, re-raises a fatal error, and otherwise
// falls through so that the loop waits again with the same deadline.
#define NL_RUN_PENDING_INTERRUPTS_OR_RETURN()              \
    switch (nativelock::php::run_pending_interrupts()) {   \
        case nativelock::php::AfterInterrupt::KeepWaiting: \
            break;                                         \
        case nativelock::php::AfterInterrupt::Exception:   \
            RETURN_THROWS();                               \
        case nativelock::php::AfterInterrupt::Bailout:     \
            zend_bailout();                                \
    }

namespace nativelock::php {}  // namespace nativelock::php
