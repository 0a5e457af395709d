// Auto-renewal of a Redis lock (SPEC §10): what the renewer thread sends, on a connection of
// its own, to keep a key alive while it still holds our token.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/renewer.hpp"
#include "redis/connection.hpp"
#include "redis/params.hpp"

namespace nativelock::redis {

// extend(conn) sets the key's TTL anew if it still holds our token and says whether it did
// (redis::extend_at_least for the plain format, symfony::extend_at_least for Symfony's).
using ExtendFn = std::function<bool(Connection &)>;

std::unique_ptr<renew::Renewal> make_renewal(const ConnectionParams &params, ExtendFn extend);

// The plain format's renewal: extend_at_least(key, value, ttl_ms) (never shortens).
std::unique_ptr<renew::Renewal> make_renewal(const ConnectionParams &params, std::string key,
                                             std::string value, long long ttl_ms);

}  // namespace nativelock::redis
