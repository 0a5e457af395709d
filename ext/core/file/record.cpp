#include "file/record.hpp"

#include <charconv>
#include <cstdlib>
#include <memory>

#include "common/process.hpp"
#include "common/random.hpp"

namespace nativelock::file {
namespace {

void put_key(std::string &out, std::string_view key) {
    out.append("s:").append(std::to_string(key.size())).append(":\"").append(key).append("\";");
}

// A string value: s:<length>:"<value>";
void put_value(std::string &out, std::string_view value) {
    out.append("s:").append(std::to_string(value.size())).append(":\"");
    out.append(value).append("\";");
}

void put_string(std::string &out, std::string_view key, std::string_view value) {
    put_key(out, key);
    put_value(out, value);
}

void put_int(std::string &out, std::string_view key, long long value) {
    put_key(out, key);
    out.append("i:").append(std::to_string(value)).append(";");
}

// A strict reader for the subset of serialize() that arrays of scalars, arrays and objects
// produce. Positions are checked against the end before every read.
class Reader {
  public:
    explicit Reader(std::string_view text) : text_(text) {}

    bool at_end() const { return pos_ == text_.size(); }

    bool expect(char c) {
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    bool read_integer(long long &value) {
        std::size_t start = pos_;
        if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
        std::size_t digits = pos_;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
        if (pos_ == digits || pos_ - digits > 19) return false;
        value = std::strtoll(std::string(text_.substr(start, pos_ - start)).c_str(), nullptr, 10);
        return true;
    }

    bool read_until(char terminator) {
        while (pos_ < text_.size() && text_[pos_] != terminator) ++pos_;
        return expect(terminator);
    }

    bool read_string_body(std::string_view &value) {
        long long length = 0;
        if (!read_integer(length) || length < 0 || !expect(':') || !expect('"')) return false;
        if (static_cast<unsigned long long>(length) > text_.size() - pos_) return false;
        value = text_.substr(pos_, static_cast<std::size_t>(length));
        pos_ += static_cast<std::size_t>(length);
        return expect('"');
    }

    // One serialized value. Strings and integers are reported; anything else is skipped.
    enum class Kind { Int, String, Other };
    bool read_value(Kind &kind, long long &int_value, std::string_view &string_value, int depth) {
        if (depth > 32 || pos_ + 1 >= text_.size()) return false;
        char type = text_[pos_++];
        kind = Kind::Other;
        if (type == 'N') return expect(';');
        if (!expect(':')) return false;
        switch (type) {
            case 'i':
                kind = Kind::Int;
                return read_integer(int_value) && expect(';');
            case 'b':
                return read_integer(int_value) && expect(';');
            case 'd':
                return read_until(';');
            case 's':
                kind = Kind::String;
                return read_string_body(string_value) && expect(';');
            case 'a':
                return skip_members(depth);
            case 'O': {
                std::string_view class_name;
                return read_string_body(class_name) && expect(':') && skip_members(depth);
            }
            default:
                return false;  // references, custom serializers: not in a lock record
        }
    }

    // "N:{key value ...}" with the count already pending.
    bool skip_members(int depth) {
        long long count = 0;
        if (!read_integer(count) || count < 0 || !expect(':') || !expect('{')) return false;
        // Every member takes at least 4 bytes ("N;N;"): a larger count cannot be satisfied,
        // and 2 * count could overflow (found by the record fuzzer).
        if (static_cast<unsigned long long>(count) > (text_.size() - pos_) / 4) return false;
        for (long long i = 0; i < count; ++i) {
            Kind kind;
            long long iv;
            std::string_view sv;
            if (!read_value(kind, iv, sv, depth + 1) || !read_value(kind, iv, sv, depth + 1)) {
                return false;
            }
        }
        return expect('}');
    }

  private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace

std::string encode(const OwnerRecord &record) {
    std::string out;
    // One allocation: the keys and framing take about 210 bytes, the values the rest.
    out.reserve(256 + record.timestamp.size() + record.name.size() + record.host.size() +
                record.boot_id.size() + record.pid_namespace.size() + record.token.size() +
                record.machine_id.size());
    out.append("a:9:{");
    put_int(out, "mypid", record.pid.value_or(0));
    put_string(out, "timestamp", record.timestamp);
    put_string(out, "name", record.name);
    put_string(out, "host", record.host);
    put_string(out, "boot_id", record.boot_id);
    put_string(out, "pidns", record.pid_namespace);
    put_int(out, "start_time", static_cast<long long>(record.start_ticks.value_or(0)));
    put_string(out, "token", record.token);
    put_string(out, "machine_id", record.machine_id);
    out.append("}");
    return out;
}

namespace {
// The serialized record around the per-call fields: "a:9:{" and mypid; the fields from host to
// the token's key; machine_id and "}". Rebuilt whenever process::self() was (in a forked
// child: its pid and start time, also when the pid is one this process inherited a frame for).
struct OwnRecordFrame {
    std::uint64_t generation = 0;  // of the identity it was built from
    std::string head, middle, tail;

    explicit OwnRecordFrame(const process::Identity &self) : generation(self.generation) {
        head.append("a:9:{");
        put_int(head, "mypid", self.pid);
        put_key(head, "timestamp");
        put_string(middle, "host", self.host);
        put_string(middle, "boot_id", self.boot_id);
        put_string(middle, "pidns", self.pid_namespace);
        put_int(middle, "start_time", static_cast<long long>(self.start_ticks));
        put_key(middle, "token");
        put_string(tail, "machine_id", self.machine_id);
        tail.append("}");
    }
};

}  // namespace

std::string encode_own(std::string_view name, std::string_view timestamp) {
    constexpr std::size_t kTokenBytes = 16;
    thread_local std::unique_ptr<OwnRecordFrame> frame;
    const process::Identity &self = process::self();
    if (!frame || frame->generation != self.generation)
        frame = std::make_unique<OwnRecordFrame>(self);
    char token[2 * kTokenBytes];
    random::hex_token_to(token, kTokenBytes);
    std::string out;
    out.reserve(frame->head.size() + frame->middle.size() + frame->tail.size() + name.size() +
                timestamp.size() + sizeof token + 48);
    out.append(frame->head);
    put_value(out, timestamp);
    put_key(out, "name");
    put_value(out, name);
    out.append(frame->middle);
    put_value(out, std::string_view(token, sizeof token));
    out.append(frame->tail);
    return out;
}

std::size_t find_timestamp(std::string_view record, std::string_view timestamp) {
    // `s:9:"timestamp";s:<length>:"<timestamp>"`, matched piece by piece (no allocation: this
    // runs on every lock() call).
    constexpr std::string_view key = "s:9:\"timestamp\";s:";
    char length[24];
    char *end = std::to_chars(length, length + sizeof length - 2, timestamp.size()).ptr;
    *end++ = ':';
    *end++ = '"';
    const std::string_view prefix(length, static_cast<std::size_t>(end - length));
    const std::size_t at = record.find(key);
    if (at == std::string_view::npos) return std::string_view::npos;
    const std::size_t value = at + key.size() + prefix.size();
    if (record.compare(at + key.size(), prefix.size(), prefix) != 0 ||
        record.compare(value, timestamp.size(), timestamp) != 0)
        return std::string_view::npos;
    return value;
}

std::optional<OwnerRecord> decode(std::string_view text) {
    Reader in(text);
    long long count = 0;
    if (!in.expect('a') || !in.expect(':') || !in.read_integer(count) || count < 0 ||
        !in.expect(':') || !in.expect('{')) {
        return std::nullopt;
    }
    OwnerRecord record;
    for (long long i = 0; i < count; ++i) {
        Reader::Kind key_kind, value_kind;
        long long key_int = 0, value_int = 0;
        std::string_view key, value;
        if (!in.read_value(key_kind, key_int, key, 0)) return std::nullopt;
        if (!in.read_value(value_kind, value_int, value, 0)) return std::nullopt;
        if (key_kind != Reader::Kind::String) continue;

        auto as_int = [&]() -> std::optional<long long> {
            if (value_kind == Reader::Kind::Int) return value_int;
            if (value_kind == Reader::Kind::String && !value.empty()) {
                Reader digits(value);
                long long parsed = 0;
                if (digits.read_integer(parsed) && digits.at_end()) return parsed;
            }
            return std::nullopt;
        };
        auto as_string = [&]() {
            return value_kind == Reader::Kind::String ? std::string(value) : std::string();
        };

        if (key == "mypid") {
            record.pid = as_int();
        } else if (key == "timestamp") {
            record.timestamp = as_string();
        } else if (key == "name") {
            record.name = as_string();
        } else if (key == "host") {
            record.host = as_string();
        } else if (key == "boot_id") {
            record.boot_id = as_string();
        } else if (key == "machine_id") {
            record.machine_id = as_string();
        } else if (key == "pidns") {
            record.pid_namespace = as_string();
        } else if (key == "start_time") {
            auto ticks = as_int();
            if (ticks && *ticks > 0) record.start_ticks = static_cast<std::uint64_t>(*ticks);
        } else if (key == "token") {
            record.token = as_string();
        }
    }
    if (!in.expect('}') || !in.at_end()) return std::nullopt;
    return record;
}

}  // namespace nativelock::file
