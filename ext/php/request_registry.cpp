#include "request_registry.h"

#include "php_nativelock.h"

namespace nativelock::php {

namespace {
// One list per phase, so that draining one phase never walks past entries of the other.
RegistryEntry *&head_of(const RegistryEntry *entry) {
    return NATIVELOCK_G(held_locks)[entry->phase];
}
}  // namespace

void registry_add(RegistryEntry *entry) {
    if (entry->linked) return;
    RegistryEntry *&head = head_of(entry);
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
        head_of(entry) = entry->next;
    }
    if (entry->next) entry->next->prev = entry->prev;
    entry->prev = entry->next = nullptr;
    entry->linked = false;
}

void registry_drain(int phase) {
    // Never keep `next` across a release: releasing one lock can free the object that embeds
    // the next entry (it unlinks itself as it goes).
    while (RegistryEntry *entry = NATIVELOCK_G(held_locks)[phase]) {
        registry_remove(entry);
        if (entry->release) entry->release(entry);
    }
}

}  // namespace nativelock::php
