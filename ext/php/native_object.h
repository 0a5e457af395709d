// The plumbing every PHP class with native state repeats: a zend_object with a C++ `State`
// in front of it, the ways back from the zend_object and from the state's registry entry, and
// the handlers that construct and destroy the state.
//
//   struct LockState { std::string name; RegistryEntry entry; };
//   using LockObject = nativelock::php::NativeObject<LockState>;
//   zend_object_handlers handlers;
//   zend_object *create(zend_class_entry *ce) { return LockObject::create(ce, &handlers); }
//   void free(zend_object *o) { /* release what o holds */ LockObject::destroy(o); }
//   MINIT: ce->create_object = create; LockObject::init_handlers(handlers, free);
//   Entry → object: LockObject::from_entry<&LockState::entry>(entry)
#pragma once

extern "C" {
#include "php.h"
}

#include <cstddef>
#include <new>
#include <type_traits>

#include "request_registry.h"

namespace nativelock::php {

template <typename State>
struct NativeObject {
    static_assert(std::is_nothrow_default_constructible_v<State>,
                  "create_object must not throw: State() must be noexcept");

    State state;
    zend_object std;  // last: the declared properties follow it in the same allocation

    static NativeObject *from(zend_object *object) {
        return reinterpret_cast<NativeObject *>(reinterpret_cast<char *>(object) -
                                                offsetof(NativeObject, std));
    }
    static State &state_of(zend_object *object) { return from(object)->state; }

    // The object whose state embeds `entry` as its `Member` (a RegistryEntry field of State).
    template <RegistryEntry State::*Member>
    static NativeObject *from_entry(RegistryEntry *entry) {
        // offsetof cannot name a member pointer; measure it on a state-sized blank instead.
        alignas(NativeObject) static const char probe[sizeof(NativeObject)] = {};
        const auto *blank = reinterpret_cast<const NativeObject *>(probe);
        std::ptrdiff_t offset = reinterpret_cast<const char *>(&(blank->state.*Member)) - probe;
        return reinterpret_cast<NativeObject *>(reinterpret_cast<char *>(entry) - offset);
    }

    // For zend_class_entry::create_object: a default-constructed State in front of a standard
    // object with its declared properties.
    static zend_object *create(zend_class_entry *ce, const zend_object_handlers *handlers) {
        auto *object = static_cast<NativeObject *>(zend_object_alloc(sizeof(NativeObject), ce));
        new (&object->state) State();
        zend_object_std_init(&object->std, ce);
        object_properties_init(&object->std, ce);
        object->std.handlers = handlers;
        return &object->std;
    }

    // The end of a free_obj handler: destroys the state, then the standard object.
    static void destroy(zend_object *object) {
        from(object)->state.~State();
        zend_object_std_dtor(object);
    }

    // Standard handlers with this layout's offset, the class's free_obj, and no cloning (the
    // state owns locks and sockets).
    static void init_handlers(zend_object_handlers &handlers, void (*free_obj)(zend_object *)) {
        memcpy(&handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
        handlers.offset = static_cast<int>(offsetof(NativeObject, std));
        handlers.free_obj = free_obj;
        handlers.clone_obj = nullptr;
    }
};

}  // namespace nativelock::php
