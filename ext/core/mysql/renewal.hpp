// Auto-renewal of a SharedLock / MysqlBackend lock (SPEC §10): the renewer thread's own session
// extends the row of the session that holds the lock, while that session still holds GET_LOCK.
#pragma once

#include <memory>
#include <string>

#include "common/renewer.hpp"
#include "mysql/native_session.hpp"
#include "mysql/protocol.hpp"

namespace nativelock::mysql {

// Renews the row of the session whose connection id is `holder` and which holds the user lock
// `identity` (its NativeSession::identity_lock(); empty: the id alone).
std::unique_ptr<renew::Renewal> make_renewal(const ConnectParams &params, QuoteStyle style,
                                             std::string table, std::string name,
                                             unsigned long long holder, long long ttl_seconds,
                                             std::string identity = {});

}  // namespace nativelock::mysql
