// Where and how to reach a Redis server: the parameters setRedis() extracts from a client
// object or a URI, and the key connections are pooled by.
#pragma once

#include <optional>
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

// What PHP's parse_url() returns for a URI (php_url_parse_ex2 in the shim): absent parts are
// empty optionals, every part still percent-encoded. The tokenizing is PHP's own, so URIs
// mean to the extension what they mean to parse_url(), Predis and the rest of PHP; the rules
// on top (schemes, ports, database, credentials, query) live here, where GoogleTest reaches
// them.
struct UriParts {
    std::optional<std::string> scheme, user, pass, host, path, query, fragment;
    std::optional<long long> port;
};

// Parses redis://[user:pass@]host[:port][/db], tcp://host:port, unix:///path, unix:/path
// (optionally ?database=N, ?db=N, ?username=…, ?password=…) and /path. `url` is
// parse_url(uri) (nullopt where parse_url() returns false); it is not used for /path and
// unix:///path, which parse_url() does not take. User and password are percent-decoded
// (characters such as / # ? @ in a password must be percent-encoded, as RFC 3986 says).
// Throws InvalidArgument naming the accepted forms; the URI in the message is redacted.
ConnectionParams parse_uri(std::string_view uri, const std::optional<UriParts> &url);

// What a client object (Credis_Client, phpredis \Redis, Predis\Client) says about its
// connection, as the shim read it: unset values are nullopt (or the defaults below).
struct ClientSettings {
    std::optional<std::string> scheme;     // "tcp", "unix", "tls", …
    std::optional<std::string> host;       // empty or unset: 127.0.0.1
    std::optional<std::string> unix_path;  // set (even empty): a unix socket, host/port ignored
    long long port = 6379;                 // 0 or less: 6379; past 65535: refused
    long long database = 0;                // must be >= 0 and < 2^31
    std::optional<std::string> username;   // used only with a non-empty password
    std::optional<std::string> password;   // unset or empty: no AUTH
    std::optional<std::string> persistent_id;
};

// The parameters a client's settings stand for ("localhost" becomes 127.0.0.1, as the
// original's clients resolve it over TCP). Throws InvalidArgument for TLS schemes (tls, ssl,
// rediss, tlsv*: hiredis 0.14 has no TLS), a port past 65535, a database outside [0, 2^31) and
// a host or socket path with a NUL byte.
ConnectionParams params_from_client(const ClientSettings &client);

// Sets the timeouts: the client's own where it gave one (> 0), else the defaults (the INI
// settings nativelock.redis_*_timeout). NaN, zero and negative values mean "not given".
// The longest connect or read timeout a client object can ask for (seconds).
constexpr double kMaxTimeoutSeconds = 86400;

void apply_timeouts(ConnectionParams &params, double connect_timeout, double read_timeout,
                    double default_connect_timeout, double default_read_timeout);

// The URI for messages: credentials (userinfo, password/username query values, a
// non-numeric "port" that may be a password without its host) replaced by "***", control
// characters escaped, at most about 200 characters.
std::string redact_uri(std::string_view uri);

}  // namespace nativelock::redis
