// One hiredis connection (blocking context) to a Redis server, owned by the process that
// opened it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "redis/params.hpp"
#include "common/process.hpp"

struct redisContext;
struct redisReply;

namespace nativelock::redis {

struct ReplyDeleter {
    void operator()(redisReply *reply) const noexcept;
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

// Reply inspection without including hiredis.h.
bool reply_is_error(const redisReply *r);
bool reply_is_nil(const redisReply *r);
bool reply_is_status(const redisReply *r, std::string_view text);
bool reply_is_integer(const redisReply *r);
long long reply_integer(const redisReply *r);
std::string_view reply_string(const redisReply *r);  // status, error, string
std::size_t reply_elements(const redisReply *r);
const redisReply *reply_element(const redisReply *r, std::size_t i);

enum class ReadResult { Data, Timeout, Interrupted };

class Connection {
  public:
    // Connects (connect timeout, kept across signals), sets the read timeout, AUTHs and SELECTs.
    // Throws ConnectionError naming params.describe() and the cause.
    explicit Connection(const ConnectionParams &params);
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;
    // Closes the socket without sending anything (no QUIT): safe in a forked child, where the
    // socket is shared with the parent.
    ~Connection();
    // In a forked child: closes the child's copy of the socket (nothing is sent, the parent's
    // session goes on) and marks the connection broken. Async-signal-safe (atfork handlers).
    void close_inherited_socket() noexcept;

    const ConnectionParams &params() const { return params_; }
    process::Tag owner() const { return owner_; }

    // Sends one command and waits for its reply (read timeout). Server error replies are
    // returned as replies; I/O failures throw ConnectionError and break the connection.
    Reply command(const std::string_view *args, std::size_t count);
    Reply command(std::initializer_list<std::string_view> args) {
        return command(args.begin(), args.size());
    }
    Reply command(const std::vector<std::string_view> &args) {
        return command(args.data(), args.size());
    }
    // Sends several commands in one write and reads all replies.
    std::vector<Reply> pipeline(const std::vector<std::vector<std::string_view>> &commands);

    // Queues a command without waiting (for subscriptions).
    void send(std::initializer_list<std::string_view> args);
    // A reply already buffered, or nothing; never blocks.
    Reply buffered_reply();
    // Waits up to timeout_ms for the socket to become readable and reads what is there.
    // `interrupted` (may be empty) is asked before each poll and after a signal interrupts
    // it: true returns Interrupted at once. Signals do not shorten or extend the wait.
    // Throws ConnectionError on EOF or I/O error.
    ReadResult read_some(int timeout_ms, const std::function<bool()> &interrupted = {});

    // Whether the connection can be reused: opened by this process, no error seen, and the
    // socket shows no pending data or EOF (a server restart or idle timeout closed it).
    bool reusable() const;
    // reusable(), without the poll() for a connection whose last reply came less than
    // kTrustedAfterReply ago: consecutive commands (a lock() and its release(), a loop of
    // them) cost no system call for the check. Only a close that the server sends within that
    // window slips through, and is then reported as it would be had it come just after the
    // poll(): the command fails with ConnectionError and the next one reconnects. Idle
    // timeouts (whole seconds), restarts and CLIENT KILL between requests are still noticed.
    bool reusable_for_next_command() const;
    static constexpr std::chrono::microseconds kTrustedAfterReply{1000};
    // No error seen so far (a subscriber has data pending by design, so reusable() does not fit).
    bool healthy() const;

    // Seconds each phase may take, taken from the params; may be changed before each use.
    void set_read_timeout(double seconds);

    [[noreturn]] void fail(const std::string &what);

  private:
    // Commands are formatted (RESP) into out_ and written by flush() in one send(); hiredis
    // only parses replies.
    void append(const std::string_view *args, std::size_t count);
    void flush();
    Reply read_reply();
    [[noreturn]] void timed_out();

    ConnectionParams params_;
    redisContext *ctx_ = nullptr;
    process::Tag owner_;
    bool broken_ = false;
    double read_timeout_ = 0;
    std::string out_;  // formatted commands not yet written; its capacity is kept
    std::chrono::steady_clock::time_point last_reply_{};  // of a command(), a pipeline()
};

}  // namespace nativelock::redis
