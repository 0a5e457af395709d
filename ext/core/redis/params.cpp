#include "redis/params.hpp"

#include <cctype>
#include <cstdlib>

#include "common/error.hpp"

namespace nativelock::redis {
namespace {

const char kAccepted[] =
    "expected redis://[user:pass@]host[:port][/db], tcp://host:port, unix:///path or /path";

[[noreturn]] void bad(std::string_view uri, const std::string &why) {
    // Shown in a PHP message: no NUL bytes, no control characters, bounded length.
    std::string shown;
    for (char c : uri.substr(0, 200)) {
        if (static_cast<unsigned char>(c) < 0x20) {
            static const char hex[] = "0123456789abcdef";
            shown += "\\x";
            shown += hex[(c >> 4) & 15];
            shown += hex[c & 15];
        } else {
            shown += c;
        }
    }
    if (uri.size() > 200) shown += "...";
    throw InvalidArgument("RedisLock::setRedis(): invalid Redis URI \"" + shown + "\": " + why +
                          " (" + kAccepted + ")");
}

std::string percent_decode(std::string_view in, std::string_view uri) {
    std::string out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '%') {
            if (i + 2 >= in.size() || !std::isxdigit(static_cast<unsigned char>(in[i + 1])) ||
                !std::isxdigit(static_cast<unsigned char>(in[i + 2]))) {
                bad(uri, "bad percent escape");
            }
            out.push_back(
                static_cast<char>(std::stoi(std::string(in.substr(i + 1, 2)), nullptr, 16)));
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
            p.password = percent_decode(value, uri);
            p.has_password = true;
        } else if (name == "username" || name == "user") {
            p.username = percent_decode(value, uri);
        }
        // Other options (timeouts, persistence) are taken from the INI settings.
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

ConnectionParams parse_uri(std::string_view uri) {
    ConnectionParams p;
    if (uri.empty()) bad(uri, "empty string");
    if (uri.find('\0') != std::string_view::npos) bad(uri, "contains a NUL byte");
    if (uri[0] == '/') {
        p.unix_path = std::string(uri);
        return p;
    }
    auto scheme_end = uri.find("://");
    if (scheme_end == std::string_view::npos) bad(uri, "no scheme");
    std::string scheme(uri.substr(0, scheme_end));
    for (auto &c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string_view rest = uri.substr(scheme_end + 3);
    std::string_view query;
    if (auto q = rest.find('?'); q != std::string_view::npos) {
        query = rest.substr(q + 1);
        rest = rest.substr(0, q);
    }
    if (scheme == "unix") {
        if (rest.empty() || rest[0] != '/')
            bad(uri, "unix:// needs an absolute path (unix:///path)");
        p.unix_path = std::string(rest);
        parse_query(query, p, uri);
        return p;
    }
    if (scheme == "rediss" || scheme == "tls" || scheme == "ssl") {
        bad(uri, "TLS is not supported (hiredis 0.14 has no TLS)");
    }
    if (scheme != "redis" && scheme != "tcp") bad(uri, "unknown scheme \"" + scheme + "\"");

    std::string_view authority = rest;
    std::string_view path;
    if (auto slash = rest.find('/'); slash != std::string_view::npos) {
        authority = rest.substr(0, slash);
        path = rest.substr(slash + 1);
    }
    if (auto at = authority.rfind('@'); at != std::string_view::npos) {
        std::string_view userinfo = authority.substr(0, at);
        authority = authority.substr(at + 1);
        auto colon = userinfo.find(':');
        if (colon == std::string_view::npos) {
            // redis://secret@host: a bare userinfo is the password, as most clients read it.
            p.password = percent_decode(userinfo, uri);
        } else {
            p.username = percent_decode(userinfo.substr(0, colon), uri);
            p.password = percent_decode(userinfo.substr(colon + 1), uri);
        }
        p.has_password = true;
    }
    std::string_view host = authority;
    std::string_view port;
    if (!authority.empty() && authority[0] == '[') {
        auto close = authority.find(']');
        if (close == std::string_view::npos) bad(uri, "unterminated [IPv6] host");
        host = authority.substr(1, close - 1);
        std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after[0] != ':') bad(uri, "garbage after [IPv6] host");
            port = after.substr(1);
            if (port.empty()) bad(uri, "empty port");
        }
    } else if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
        if (port.empty()) bad(uri, "empty port");
    }
    if (host.empty()) bad(uri, "no host");
    p.host = std::string(host);
    if (!port.empty()) {
        p.port = static_cast<int>(parse_number(port, 65535, uri, "port"));
        if (p.port == 0) bad(uri, "port out of range");
    }
    if (!path.empty()) {
        if (scheme == "tcp") bad(uri, "tcp:// takes no path");
        p.database = parse_number(path, 1LL << 31, uri, "database");
    }
    parse_query(query, p, uri);
    return p;
}

}  // namespace nativelock::redis
