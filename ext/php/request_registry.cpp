#include "request_registry.h"

#include "php_nativelock.h"

namespace nativelock::php {

void registry_add(RegistryEntry *entry) {
    if (entry->linked) return;
    entry->prev = nullptr;
    entry->next = NATIVELOCK_G(held_locks);
    if (entry->next) entry->next->prev = entry;
    NATIVELOCK_G(held_locks) = entry;
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

void registry_drain(int phase) {
    RegistryEntry *entry = NATIVELOCK_G(held_locks);
    while (entry) {
        RegistryEntry *next = entry->next;
        if (entry->phase == phase) {
            registry_remove(entry);
            if (entry->release) entry->release(entry);
        }
        entry = next;
    }
}

}  // namespace nativelock::php
