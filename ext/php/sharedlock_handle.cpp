// SharedLockHandle objects: the package's class, plus the id of the acquisition lock() made the
// handle for. Handles know only their name, and one process can list a name twice (a lock lost
// with its session, never released, and the name taken again): each handle must release, assert
// and renew its own acquisition, never a later one of the same name.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <cstddef>
#include <cstring>

#include "sharedlock_shim.h"

namespace nativelock::php::sharedlock {

namespace {

struct HandleObject {
    // 0: not made by lock() (`new SharedLockHandle($name)`): by name, as in the package.
    std::uint64_t acquisition;
    zend_object std;
};

zend_object_handlers handle_handlers;

HandleObject *from(zend_object *object) {
    return reinterpret_cast<HandleObject *>(reinterpret_cast<char *>(object) -
                                            offsetof(HandleObject, std));
}

zend_object *create_handle(zend_class_entry *ce) {
    auto *handle = static_cast<HandleObject *>(zend_object_alloc(sizeof(HandleObject), ce));
    handle->acquisition = 0;
    zend_object_std_init(&handle->std, ce);
    object_properties_init(&handle->std, ce);
    handle->std.handlers = &handle_handlers;
    return &handle->std;
}

// A clone stands for the same acquisition (the package's clone is the same name).
zend_object *clone_handle(zend_object *old) {
    zend_object *copy = create_handle(old->ce);
    zend_objects_clone_members(copy, old);
    from(copy)->acquisition = from(old)->acquisition;
    return copy;
}

}  // namespace

void minit_handle_objects() {
    std::memcpy(&handle_handlers, zend_get_std_object_handlers(), sizeof handle_handlers);
    handle_handlers.offset = static_cast<int>(offsetof(HandleObject, std));
    handle_handlers.clone_obj = clone_handle;
    ce_handle->create_object = create_handle;  // inherited by subclasses
}

std::uint64_t handle_acquisition(zend_object *handle) {
    return handle->handlers == &handle_handlers ? from(handle)->acquisition : 0;
}

void set_handle_acquisition(zend_object *handle, std::uint64_t acquisition) {
    if (handle->handlers == &handle_handlers) from(handle)->acquisition = acquisition;
}

}  // namespace nativelock::php::sharedlock
