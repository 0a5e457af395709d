// The SharedLock protocol (its-mieger/mysql-shared-locks compatible rows and GET_LOCK names),
// independent of how statements reach the server.
#pragma once

#include <cstdint>
#include <string>

#include "mysql/session.hpp"

namespace nativelock::mysql {

enum class QuoteStyle { Default = 0, Ansi = 1 };

// lock(): the wait ended without the lock.
class LockTimeout : public Error {
  public:
    using Error::Error;
};

// lock(): the lock could not be taken for a reason other than time (message is the package's).
class AcquireFailed : public Error {
  public:
    using Error::Error;
};

// tryRepairTable() failed (message is the package's).
class TableRepairFailed : public Error {
  public:
    using Error::Error;
};

// The longest lock name the table (varchar(64)) holds, in characters.
constexpr std::size_t kMaxNameChars = 64;

// Number of characters of a name: UTF-8 code points if valid UTF-8, else bytes.
std::size_t name_length(const std::string &name);

class Protocol {
  public:
    Protocol(Session &session, QuoteStyle style, std::string table = "shared_locks");

    // Acquires; throws LockTimeout, AcquireFailed, InvalidArgument or session errors.
    void lock(const std::string &name, double timeout, long long ttl);
    // Deletes our row and releases GET_LOCK; false if the row was not ours anymore.
    bool unlock(const std::string &name);
    // Request-end release: like unlock(), but a row whose lock_acquired mark is unset is left
    // for contenders to clean after its TTL, as it is when the package's process ends.
    bool release_at_end(const std::string &name);
    bool has_remaining_ttl(const std::string &name, long long min_ttl);
    void repair_table();

    std::string quote(const std::string &identifier) const;

    // Statistics for tests: statements sent by this protocol object.
    unsigned statements() const { return statements_; }

  private:
    Result run(const std::string &sql, const std::vector<Param> &params, bool prepared = true,
               bool want_rows = false);
    bool register_row(const std::string &name, long long ttl);
    bool take_get_lock(const std::string &name);
    void deregister(const std::string &name);
    bool clean(const std::string &name);

    Session &session_;
    QuoteStyle style_;
    std::string table_;
    std::string q_table_, q_name_, q_created_, q_ttl_, q_conn_, q_acquired_;
    unsigned statements_ = 0;
};

}  // namespace nativelock::mysql
