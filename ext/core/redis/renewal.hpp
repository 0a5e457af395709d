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
// (redis::refresh for the plain format, symfony::put_off_expiration for Symfony's).
using ExtendFn = std::function<bool(Connection &)>;

std::unique_ptr<renew::Renewal> make_renewal(const ConnectionParams &params, ExtendFn extend);

// The plain format's renewal: refresh(key, value, ttl_ms).
std::unique_ptr<renew::Renewal> make_renewal(const ConnectionParams &params, std::string key,
                                             std::string value, long long ttl_ms);

}  // namespace nativelock::redis
