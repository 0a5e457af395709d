#include "interrupts.h"

extern "C" {
#include "Zend/zend_execute.h"
}

namespace nativelock::php {

bool interrupt_pending() noexcept {
    return zend_atomic_bool_load_ex(&EG(vm_interrupt));
}

AfterInterrupt run_pending_interrupts() noexcept {
    if (!zend_atomic_bool_load_ex(&EG(vm_interrupt))) return AfterInterrupt::KeepWaiting;
    bool bailed_out = false;
    zend_try {
        // The same order as the VM's interrupt helper: clear the flag, then either the
        // timeout (fatal) or the interrupt function (pcntl dispatches its queued signals).
        zend_atomic_bool_store_ex(&EG(vm_interrupt), false);
        if (zend_atomic_bool_load_ex(&EG(timed_out))) {
            zend_timeout();
        } else if (zend_interrupt_function) {
            zend_interrupt_function(EG(current_execute_data));
        }
    }
    zend_catch {
        bailed_out = true;
    }
    zend_end_try();
    if (bailed_out) return AfterInterrupt::Bailout;
    return EG(exception) ? AfterInterrupt::Exception : AfterInterrupt::KeepWaiting;
}

}  // namespace nativelock::php
