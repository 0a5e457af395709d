#include "redis/params.hpp"

#include <cctype>
#include <cstdlib>

#include "common/error.hpp"

namespace nativelock::redis {
namespace {

const char kAccepted[] =
    "expected redis://[user:pass@]host[:port][/db], tcp://host:port, unix:///path or /path";

[[noreturn]] void bad(std::string_view uri, const std::string &why) {
    throw InvalidArgument("RedisLock::setRedis(): invalid Redis URI \"" + redact_uri(uri) +
                          "\": " + why + " (" + kAccepted + ")");
}

bool is_credential_name(std::string_view name) {
    std::string lower(name);
    for (auto &c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower == "password" || lower == "pass" || lower == "username" || lower == "user" ||
           lower == "auth";
}

// rawurldecode(): %XX becomes the byte, anything else (also a '%' not followed by two hex
// digits, and '+') stays as it is.
std::string percent_decode(std::string_view in) {
    auto hex = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    std::string out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '%' && i + 2 < in.size() &&
            std::isxdigit(static_cast<unsigned char>(in[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(in[i + 2]))) {
            out.push_back(static_cast<char>(hex(in[i + 1]) * 16 + hex(in[i + 2])));
            i += 2;
        } else {
            out.push_back(in[i]);
        }
    }
    return out;
}

long long parse_number(std::string_view text, long long max, std::string_view uri,
                       const char *what) {
    if (text.empty() || text.size() > 18) bad(uri, std::string("bad ") + what);
    long long value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') bad(uri, std::string("bad ") + what);
        value = value * 10 + (c - '0');
    }
    if (value > max) bad(uri, std::string(what) + " out of range");
    return value;
}

// ?database=N&db=N&password=… (the query part some clients accept).
void parse_query(std::string_view query, ConnectionParams &p, std::string_view uri) {
    while (!query.empty()) {
        auto amp = query.find('&');
        std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        auto eq = pair.find('=');
        std::string_view name = pair.substr(0, eq);
        std::string_view value =
            eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
        if (name == "db" || name == "database") {
            p.database = parse_number(value, 1LL << 31, uri, "database");
        } else if (name == "password") {
            p.password = percent_decode(value);
            p.has_password = true;
        } else if (name == "username" || name == "user") {
            p.username = percent_decode(value);
        } else {
            // Not ignored: a timeout or TLS option silently dropped would surprise later.
            // Timeouts come from the INI settings nativelock.redis_*_timeout.
            std::string shown;
            for (char c : name.substr(0, 40)) {
                shown += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '?';
            }
            bad(uri, "unsupported URI parameter \"" + shown +
                         "\" (supported: database, db, username, password)");
        }
    }
}

}  // namespace

std::string ConnectionParams::describe() const {
    if (!unix_path.empty()) return "unix:" + unix_path;
    if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
    return host + ":" + std::to_string(port);
}

const std::string &ConnectionParams::pool_key() const {
    if (!pool_key_.empty()) return pool_key_;
    std::string key = unix_path.empty() ? "tcp\x1f" + host + "\x1f" + std::to_string(port)
                                        : "unix\x1f" + unix_path;
    key += "\x1f" + std::to_string(database);
    key += "\x1f" + username;
    key += "\x1f" + std::string(has_password ? "1" : "0") + password;
    key += "\x1f" + persistent_id;
    pool_key_ = std::move(key);
    return pool_key_;
}

std::string redact_uri(std::string_view uri) {
    std::string text(uri);
    std::size_t start = text.find("://");
    start = start == std::string::npos ? 0 : start + 3;
    // Userinfo: everything up to the last '@' (parse_url() also splits at the last one).
    std::size_t at = text.rfind('@');
    if (at != std::string::npos && at >= start) {
        text.replace(start, at - start, "***");
    } else {
        // No '@': "redis://user:secret" (host forgotten) makes the password look like a port.
        std::size_t end = text.find_first_of("/?#", start);
        std::string_view authority =
            std::string_view(text).substr(start, end == std::string::npos ? end : end - start);
        std::size_t colon = authority.rfind(':');
        if (colon != std::string_view::npos) {
            std::string_view port = authority.substr(colon + 1);
            bool numeric = !port.empty() && port.size() <= 5 &&
                           port.find_first_not_of("0123456789") == std::string_view::npos;
            if (!numeric && !port.empty()) text.replace(start + colon + 1, port.size(), "***");
        }
    }
    // Credentials given as query parameters.
    std::size_t q = text.find('?', start);
    while (q != std::string::npos) {
        std::size_t name_begin = q + 1;
        std::size_t eq = text.find('=', name_begin);
        std::size_t amp = text.find('&', name_begin);
        if (eq == std::string::npos || (amp != std::string::npos && amp < eq)) {
            q = amp;
            continue;
        }
        std::size_t value_end = amp == std::string::npos ? text.size() : amp;
        if (is_credential_name(std::string_view(text).substr(name_begin, eq - name_begin))) {
            text.replace(eq + 1, value_end - eq - 1, "***");
            value_end = eq + 4;
        }
        q = value_end < text.size() ? value_end : std::string::npos;
    }
    // Shown in a PHP message: no NUL bytes, no control characters, bounded length (after
    // redaction, so that truncation can never uncover a password).
    std::string shown;
    for (char c : std::string_view(text).substr(0, 200)) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            static const char hex[] = "0123456789abcdef";
            shown += "\\x";
            shown += hex[(c >> 4) & 15];
            shown += hex[c & 15];
        } else {
            shown += c;
        }
    }
    if (text.size() > 200) shown += "...";
    return shown;
}

ConnectionParams parse_uri(std::string_view uri, const std::optional<UriParts> &url) {
    ConnectionParams p;
    if (uri.empty()) bad(uri, "empty string");
    if (uri.find('\0') != std::string_view::npos) bad(uri, "contains a NUL byte");
    if (uri[0] == '/') {
        p.unix_path = std::string(uri);
        return p;
    }
    if (uri.size() >= 7) {
        std::string prefix(uri.substr(0, 7));
        for (auto &c : prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (prefix == "unix://") {
            // parse_url() rejects unix:///path; Predis reads it as unix:/path, so do we.
            std::string_view rest = uri.substr(7);
            std::string_view query;
            if (auto qm = rest.find('?'); qm != std::string_view::npos) {
                query = rest.substr(qm + 1);
                rest = rest.substr(0, qm);
            }
            if (rest.empty() || rest[0] != '/')
                bad(uri, "unix:// needs an absolute path (unix:///path)");
            p.unix_path = std::string(rest);
            parse_query(query, p, uri);
            return p;
        }
    }
    if (!url) {
        bad(uri,
            "parse_url() rejects it (a bad port, or characters such as / # ? @ in the user "
            "name or password, which must be percent-encoded)");
    }
    if (!url->scheme) bad(uri, "no scheme");
    std::string scheme = *url->scheme;
    for (auto &c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (scheme == "rediss" || scheme == "tls" || scheme == "ssl") {
        bad(uri, "TLS is not supported (hiredis 0.14 has no TLS)");
    }
    if (url->fragment) bad(uri, "a #fragment is not allowed");
    std::string_view query = url->query ? std::string_view(*url->query) : std::string_view();
    if (scheme == "unix") {
        if (url->host || url->port || url->user || url->pass)
            bad(uri, "unix: takes a path only (unix:/path or unix:///path)");
        if (!url->path || url->path->empty() || (*url->path)[0] != '/')
            bad(uri, "unix: needs an absolute path");
        p.unix_path = *url->path;
        parse_query(query, p, uri);
        return p;
    }
    if (scheme != "redis" && scheme != "tcp") bad(uri, "unknown scheme \"" + scheme + "\"");

    if (url->user || url->pass) {
        std::string user = url->user ? percent_decode(*url->user) : std::string();
        if (!url->pass) {
            // redis://secret@host: a bare userinfo is the password, as most clients read it.
            p.password = std::move(user);
        } else {
            p.username = std::move(user);
            p.password = percent_decode(*url->pass);
        }
        p.has_password = true;
    }
    std::string host = url->host ? *url->host : std::string();
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);  // parse_url() keeps IPv6 brackets
    } else if (host.find_first_of("[]") != std::string::npos) {
        bad(uri, "malformed [IPv6] host");
    }
    if (host.empty()) bad(uri, "no host");
    p.host = std::move(host);
    if (url->port) {
        if (*url->port < 1 || *url->port > 65535) bad(uri, "port out of range");
        p.port = static_cast<int>(*url->port);
    }
    std::string_view path = url->path ? std::string_view(*url->path) : std::string_view();
    if (!path.empty() && path[0] == '/') path.remove_prefix(1);
    if (!path.empty()) {
        if (scheme == "tcp") bad(uri, "tcp:// takes no path");
        p.database = parse_number(path, 1LL << 31, uri, "database");
    }
    parse_query(query, p, uri);
    return p;
}

ConnectionParams params_from_client(const ClientSettings &client) {
    std::string scheme = client.scheme.value_or("");
    for (auto &c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (scheme == "tls" || scheme == "ssl" || scheme == "rediss" || scheme.rfind("tlsv", 0) == 0) {
        throw InvalidArgument(
            "RedisLock::setRedis(): TLS connections are not supported (hiredis 0.14 has no TLS)");
    }
    if (client.database < 0 || client.database >= (1LL << 31)) {
        throw InvalidArgument("RedisLock::setRedis(): the database number must be >= 0 and < 2^31");
    }
    // A C string ends at the first NUL: "127.0.0.1\0.evil" would connect to 127.0.0.1.
    const auto has_nul = [](const std::optional<std::string> &s) {
        return s && s->find('\0') != std::string::npos;
    };
    if (has_nul(client.host) || has_nul(client.unix_path)) {
        throw InvalidArgument(
            "RedisLock::setRedis(): the client's host or socket path contains a "
            "NUL byte");
    }
    ConnectionParams p;
    if (client.unix_path) {
        p.unix_path = *client.unix_path;
    } else {
        if (client.host && !client.host->empty()) p.host = *client.host;
        if (p.host == "localhost") p.host = "127.0.0.1";
        // No port (0, or Credis' null for a socket) is the client's default, 6379; one past
        // 65535 names no server, and locks must not silently go to the default one instead.
        if (client.port > 65535)
            throw InvalidArgument("RedisLock::setRedis(): the client's port " +
                                  std::to_string(client.port) + " is out of range (1-65535)");
        if (client.port > 0) p.port = static_cast<int>(client.port);
    }
    p.database = client.database;
    p.has_password = client.password && !client.password->empty();
    if (p.has_password) {
        p.password = *client.password;
        p.username = client.username.value_or("");
    }
    p.persistent_id = client.persistent_id.value_or("");
    return p;
}

void apply_timeouts(ConnectionParams &params, double connect_timeout, double read_timeout,
                    double default_connect_timeout, double default_read_timeout) {
    // A client's 0, negative or NaN timeout means "the INI default"; INF and huge values are
    // clamped to a day (a number every later conversion can hold), never converted as they are.
    auto pick = [](double given, double fallback) {
        if (!(given > 0)) return fallback;
        return given < kMaxTimeoutSeconds ? given : kMaxTimeoutSeconds;
    };
    params.connect_timeout = pick(connect_timeout, default_connect_timeout);
    params.read_timeout = pick(read_timeout, default_read_timeout);
}

}  // namespace nativelock::redis
