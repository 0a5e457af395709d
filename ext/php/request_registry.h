// The per-request registry of held locks. Every lock object embeds a RegistryEntry and links
// it while it holds a lock; RSHUTDOWN drains it, after destructors and every shutdown function
// (SPEC §2). This is what releases locks after exit(), uncaught exceptions and fatal errors:
// dtor_obj never runs after a fatal error, RSHUTDOWN always does.
#pragma once

namespace nativelock::php {

struct RegistryEntry {
    RegistryEntry *prev = nullptr;
    RegistryEntry *next = nullptr;
    bool linked = false;
    // Must not throw and must not call into PHP userland: it may run after a fatal error.
    void (*release)(RegistryEntry *entry) noexcept = nullptr;
};

void registry_add(RegistryEntry *entry);
void registry_remove(RegistryEntry *entry);
// The first entry (follow `next`); for walks that unlink nothing on the way.
RegistryEntry *registry_first();
// Releases and unlinks every entry. A release may free other entries (an object held only by
// a released lock's property) or add new ones: the drain takes the current head each time and
// keeps no pointer across a release.
void registry_drain();

}  // namespace nativelock::php
