// Where and how to reach a Redis server: the parameters setRedis() extracts from a client
// object or a URI, and the key connections are pooled by.
#pragma once

#include <string>
#include <string_view>

namespace nativelock::redis {

struct ConnectionParams {
    std::string host = "127.0.0.1";  // TCP host; ignored when unix_path is set
    int port = 6379;
    std::string unix_path;   // non-empty: connect to this unix socket
    long long database = 0;  // SELECTed after connecting when non-zero
    std::string username;    // AUTH username password (Redis 6 ACL) when non-empty
    std::string password;    // AUTH password when non-empty
    bool has_password = false;
    std::string persistent_id;     // distinct ids get distinct pooled connections
    double connect_timeout = 2.0;  // seconds
    double read_timeout = 5.0;     // seconds

    // "host:port" or "unix:/path", for messages.
    std::string describe() const;
    // Identity of the server session (endpoint, database, credentials, persistent id);
    // timeouts are not part of it. Computed once and cached: do not change the endpoint,
    // database or credentials of a ConnectionParams after asking for its key.
    const std::string &pool_key() const;

  private:
    mutable std::string pool_key_;
};

// Parses redis://[user:pass@]host[:port][/db], tcp://host:port, unix:///path (optionally
// ?database=N / ?db=N) and /path. Throws InvalidArgument naming the accepted forms.
ConnectionParams parse_uri(std::string_view uri);

}  // namespace nativelock::redis
