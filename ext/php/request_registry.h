// The per-request registry of held locks. Every lock object embeds a RegistryEntry and links
// it while it holds a lock; RSHUTDOWN (or, for backends that need live PHP objects, a
// shutdown function) drains it. This is what releases locks after exit(), uncaught exceptions
// and fatal errors: dtor_obj never runs after a fatal error, RSHUTDOWN always does.
#pragma once

namespace nativelock::php {

struct RegistryEntry {
    RegistryEntry *prev = nullptr;
    RegistryEntry *next = nullptr;
    bool linked = false;
    // Must not throw and must not call into PHP userland: it may run after a fatal error.
    void (*release)(RegistryEntry *entry) noexcept = nullptr;
    // Which drain releases this entry (native backends in RSHUTDOWN, PDO-backed ones earlier).
    int phase = 0;
};

constexpr int kReleaseAtRequestShutdown = 0;
constexpr int kReleaseAtShutdownFunction = 1;
constexpr int kReleasePhases = 2;

void registry_add(RegistryEntry *entry);
void registry_remove(RegistryEntry *entry);
// Releases and unlinks every entry of the given phase. A release may free other entries
// (an object held only by a released lock's property) or add new ones: the drain takes the
// current head each time and keeps no pointer across a release.
void registry_drain(int phase);

}  // namespace nativelock::php
