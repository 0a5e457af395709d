#include "request_registry.h"

#include "php_nativelock.h"

namespace nativelock::php {

void registry_add(RegistryEntry *entry) {
    if (entry->linked) return;
    RegistryEntry *&head = NATIVELOCK_G(held_locks);
    entry->prev = nullptr;
    entry->next = head;
    if (entry->next) entry->next->prev = entry;
    head = entry;
    entry->linked = true;
}

void registry_remove(RegistryEntry *entry) {
    if (!entry->linked) return;
    if (entry->prev) {
        entry->prev->next = entry->next;
    } else {
        NATIVELOCK_G(held_locks) = entry->next;
    }
    if (entry->next) entry->next->prev = entry->prev;
    entry->prev = entry->next = nullptr;
    entry->linked = false;
}

RegistryEntry *registry_first() {
    return NATIVELOCK_G(held_locks);
}

void registry_drain() {
    // Never keep `next` across a release: releasing one lock can free the object that embeds
    // the next entry (it unlinks itself as it goes).
    while (RegistryEntry *entry = NATIVELOCK_G(held_locks)) {
        registry_remove(entry);
        if (entry->release) entry->release(entry);
    }
}

}  // namespace nativelock::php
