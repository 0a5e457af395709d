#include "redis/connection.hpp"

#include "common/process.hpp"

#include <hiredis/hiredis.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "common/deadline.hpp"
#include "common/error.hpp"

namespace nativelock::redis {
namespace {

timeval to_timeval(double seconds) {
    if (!(seconds > 0)) seconds = 0.001;
    if (!(seconds < kMaxTimeoutSeconds)) seconds = kMaxTimeoutSeconds;  // INF: no overflow
    timeval tv;
    tv.tv_sec = static_cast<time_t>(seconds);
    tv.tv_usec = static_cast<suseconds_t>((seconds - std::floor(seconds)) * 1e6);
    if (tv.tv_sec == 0 && tv.tv_usec == 0) tv.tv_usec = 1000;
    return tv;
}

std::string context_error(const redisContext *ctx) {
    if (!ctx) return "cannot allocate a hiredis context";
    std::string text = ctx->errstr;
    if (ctx->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK) &&
        text.find("emporarily") != std::string::npos) {
        return "read timed out";
    }
    if (text.empty()) text = "connection error";
    return text;
}

}  // namespace

void ReplyDeleter::operator()(redisReply *reply) const noexcept {
    freeReplyObject(reply);
}

bool reply_is_error(const redisReply *r) {
    return r && r->type == REDIS_REPLY_ERROR;
}
bool reply_is_nil(const redisReply *r) {
    return r && r->type == REDIS_REPLY_NIL;
}
bool reply_is_status(const redisReply *r, std::string_view text) {
    return r && r->type == REDIS_REPLY_STATUS && std::string_view(r->str, r->len) == text;
}
bool reply_is_integer(const redisReply *r) {
    return r && r->type == REDIS_REPLY_INTEGER;
}
long long reply_integer(const redisReply *r) {
    return r ? r->integer : 0;
}
std::string_view reply_string(const redisReply *r) {
    if (!r || !r->str) return {};
    return std::string_view(r->str, r->len);
}
std::size_t reply_elements(const redisReply *r) {
    return r && r->type == REDIS_REPLY_ARRAY ? r->elements : 0;
}
const redisReply *reply_element(const redisReply *r, std::size_t i) {
    return i < reply_elements(r) ? r->element[i] : nullptr;
}

// Waits until fd shows `events` or `until` passes. EINTR (a signal; poll() is never restarted,
// SA_RESTART or not) polls again with the time that is left, so signals neither cut the wait
// short nor extend it. Returns false at the deadline.
static bool wait_for(int fd, short events, const Deadline &until) {
    for (;;) {
        int left = until.remaining_ms(60 * 60 * 1000);
        pollfd pfd{fd, events, 0};
        int rc = ::poll(&pfd, 1, left);
        if (rc > 0) return true;
        if (rc == 0) {
            if (until.expired()) return false;
            continue;
        }
        if (errno != EINTR) return true;  // let the read/write report the error
    }
}

Connection::Connection(const ConnectionParams &params)
    : params_(params), owner_(process::current_tag()) {
    // hiredis' own connect timeout gives up when a signal interrupts its poll() ("poll(2):
    // Interrupted system call"): connect without blocking and wait here instead.
    auto until = Deadline::after(params.connect_timeout > 0 ? params.connect_timeout : 0.001);
    ctx_ = params.unix_path.empty() ? redisConnectNonBlock(params.host.c_str(), params.port)
                                    : redisConnectUnixNonBlock(params.unix_path.c_str());
    std::string why;
    // The socket must not leak into exec()ed children: one that outlives us would keep the
    // connection (and a waiter's subscription) open on the server.
    if (ctx_ && ctx_->fd >= 0) ::fcntl(ctx_->fd, F_SETFD, ::fcntl(ctx_->fd, F_GETFD) | FD_CLOEXEC);
    if (!ctx_ || ctx_->err) {
        why = context_error(ctx_);
    } else if (!wait_for(ctx_->fd, POLLOUT, until)) {
        why = "connect timed out after " + std::to_string(params.connect_timeout) + " s";
    } else {
        int err = 0;
        socklen_t len = sizeof err;
        if (::getsockopt(ctx_->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
        if (err != 0) {
            why = std::strerror(err);
        } else {
            // From here on a blocking context, as redisConnectWithTimeout() leaves it.
            int flags = ::fcntl(ctx_->fd, F_GETFL);
            if (flags < 0 || ::fcntl(ctx_->fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
                why = std::string("fcntl: ") + std::strerror(errno);
            } else {
                ctx_->flags |= REDIS_BLOCK;
            }
        }
    }
    if (!why.empty()) {
        if (ctx_) redisFree(ctx_);
        ctx_ = nullptr;
        throw ConnectionError("cannot connect to Redis at " + params.describe() + ": " + why);
    }
    // A command below may throw (a server that accepts but never answers: read timeout), and
    // a throwing constructor never runs ~Connection: free the context on the way out.
    struct FreeUnlessConnected {
        redisContext *&ctx;
        bool connected = false;
        ~FreeUnlessConnected() {
            if (!connected && ctx) redisFree(ctx);
            if (!connected) ctx = nullptr;
        }
    } guard{ctx_};
    set_read_timeout(params.read_timeout);
    if (params.has_password || !params.username.empty()) {
        Reply r = params.username.empty() ? command({"AUTH", params.password})
                                          : command({"AUTH", params.username, params.password});
        if (reply_is_error(r.get())) {
            std::string why(reply_string(r.get()));
            redisFree(ctx_);
            ctx_ = nullptr;
            throw ConnectionError("Redis at " + params.describe() + " refused AUTH: " + why);
        }
    }
    // Names the session in CLIENT LIST (nativelock-<pid>); servers that refuse it are fine.
    {
        std::string name = "nativelock-" + std::to_string(owner_.pid);
        Reply r = command({"CLIENT", "SETNAME", name});
        (void)r;
    }
    if (params.database != 0) {
        std::string db = std::to_string(params.database);
        Reply r = command({"SELECT", db});
        if (reply_is_error(r.get())) {
            std::string why(reply_string(r.get()));
            redisFree(ctx_);
            ctx_ = nullptr;
            throw ConnectionError("Redis at " + params.describe() + " refused SELECT " + db + ": " +
                                  why);
        }
    }
    guard.connected = true;
}

Connection::~Connection() {
    // redisFree() only closes the descriptor and frees buffers: nothing is written, so a
    // child dropping its parent's connection leaves the parent's session untouched.
    if (ctx_) redisFree(ctx_);
}

void Connection::close_inherited_socket() noexcept {
    broken_ = true;
    if (ctx_ && ctx_->fd >= 0) {
        ::close(ctx_->fd);
        ctx_->fd = -1;  // redisFree() then closes nothing
    }
}

void Connection::set_read_timeout(double seconds) {
    if (!ctx_ || seconds == read_timeout_) return;
    if (redisSetTimeout(ctx_, to_timeval(seconds)) != REDIS_OK) fail("cannot set the read timeout");
    read_timeout_ = seconds;
}

void Connection::fail(const std::string &what) {
    broken_ = true;
    throw ConnectionError("Redis at " + params_.describe() + ": " + what);
}

namespace {

// Decimal digits of n written backwards, ending at `end`; returns where they start.
char *format_decimal(std::size_t n, char *end) {
    do {
        *--end = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n);
    return end;
}

std::size_t decimal_length(std::size_t n) {
    std::size_t len = 1;
    while (n >= 10) {
        n /= 10;
        ++len;
    }
    return len;
}

// "<type><n>\r\n" at p; returns the end.
char *put_header(char *p, char type, std::size_t n) {
    const std::size_t len = decimal_length(n);
    *p = type;
    format_decimal(n, p + 1 + len);
    p += 1 + len;
    *p++ = '\r';
    *p++ = '\n';
    return p;
}

}  // namespace

void Connection::append(const std::string_view *args, std::size_t count) {
    if (broken_ || !ctx_) fail("connection is broken");
    // RESP, as redisAppendCommandArgv() formats it, but sized once and copied, not built up
    // one sds concatenation (and allocation) at a time.
    std::size_t size = 3 + decimal_length(count);
    for (std::size_t i = 0; i < count; ++i)
        size += 5 + decimal_length(args[i].size()) + args[i].size();
    const std::size_t start = out_.size();
    out_.resize(start + size);  // may throw: nothing was added then
    char *p = put_header(&out_[start], '*', count);
    for (std::size_t i = 0; i < count; ++i) {
        p = put_header(p, '$', args[i].size());
        if (!args[i].empty()) std::memcpy(p, args[i].data(), args[i].size());
        p += args[i].size();
        *p++ = '\r';
        *p++ = '\n';
    }
}

void Connection::flush() {
    // A blocking send() bounded by SO_SNDTIMEO (set with SO_RCVTIMEO by set_read_timeout()),
    // as redisBufferWrite() did: a signal sends the rest, a timeout or an error breaks the
    // connection with hiredis' words. MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE.
    // After a signal the rest is waited for with the time that is left: a send() restarted
    // with its full SO_SNDTIMEO after every signal could be stretched without end.
    const auto until = Deadline::after(read_timeout_);
    std::size_t sent = 0;
    while (sent < out_.size()) {
        ssize_t n = ::send(ctx_->fd, out_.data() + sent, out_.size() - sent, MSG_NOSIGNAL);
        if (n >= 0) {
            sent += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR) {
            if (wait_for(ctx_->fd, POLLOUT, until)) continue;
            errno = EAGAIN;
        }
        int err = errno;
        out_.clear();
        fail(err == EAGAIN || err == EWOULDBLOCK ? std::string("read timed out")
                                                 : std::string(std::strerror(err)));
    }
    out_.clear();
}

Reply Connection::read_reply() {
    // Not redisGetReply(): its read() restarts the full SO_RCVTIMEO after every signal.
    flush();
    // The reply is read by a blocking read() bounded by SO_RCVTIMEO, which set_read_timeout()
    // keeps at read_timeout_: no poll() before it. Once a signal interrupted it (with a timeout
    // set, a socket read is never restarted, SA_RESTART or not: EINTR) or only part of a reply
    // came, the rest is waited for by poll() with the time that is left, so signals neither cut
    // the wait short nor extend it.
    auto until = Deadline::after(read_timeout_);
    bool bounded_by_socket = true;
    for (;;) {
        void *raw = nullptr;
        if (redisGetReplyFromReader(ctx_, &raw) != REDIS_OK) fail(context_error(ctx_));
        if (raw) {
            last_reply_ = std::chrono::steady_clock::now();
            return Reply(static_cast<redisReply *>(raw));
        }
        if (!bounded_by_socket && !wait_for(ctx_->fd, POLLIN, until)) timed_out();
        char buf[16 * 1024];
        ssize_t n = ::read(ctx_->fd, buf, sizeof buf);
        if (n > 0) {
            if (redisReaderFeed(ctx_->reader, buf, static_cast<std::size_t>(n)) != REDIS_OK)
                fail(ctx_->reader->errstr[0] ? ctx_->reader->errstr : "cannot parse the reply");
            bounded_by_socket = false;  // a partial reply: the rest within what is left
            continue;
        }
        if (n == 0) fail("Server closed the connection");
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            // SO_RCVTIMEO ran out, which is never before the deadline (it is rounded up to
            // the kernel's tick and started after it); should it be, the rest is polled for.
            if (until.expired()) timed_out();
            bounded_by_socket = false;
            continue;
        }
        if (errno == EINTR) {
            bounded_by_socket = false;
            continue;
        }
        fail(std::strerror(errno));
    }
}

void Connection::timed_out() {
    fail("no reply within the read timeout (" + std::to_string(read_timeout_) + " s)");
}

Reply Connection::command(const std::string_view *args, std::size_t count) {
    append(args, count);
    return read_reply();
}

std::vector<Reply> Connection::pipeline(
    const std::vector<std::vector<std::string_view>> &commands) {
    // A pipeline half appended (bad_alloc) must not leave its first commands to be sent ahead
    // of the next one, whose reply would then be theirs.
    const std::size_t before = out_.size();
    try {
        for (const auto &args : commands) append(args.data(), args.size());
    } catch (...) {
        out_.resize(before);
        throw;
    }
    std::vector<Reply> replies;
    replies.reserve(commands.size());
    for (std::size_t i = 0; i < commands.size(); ++i) replies.push_back(read_reply());
    return replies;
}

void Connection::send(std::initializer_list<std::string_view> args) {
    append(args.begin(), args.size());
    flush();
}

Reply Connection::buffered_reply() {
    if (!ctx_) return Reply();
    void *raw = nullptr;
    if (redisGetReplyFromReader(ctx_, &raw) != REDIS_OK) fail(context_error(ctx_));
    return Reply(static_cast<redisReply *>(raw));
}

ReadResult Connection::read_some(int timeout_ms, const std::function<bool()> &interrupted) {
    if (broken_ || !ctx_) fail("connection is broken");
    auto until = Deadline::after(timeout_ms / 1000.0);
    for (;;) {
        if (interrupted && interrupted()) return ReadResult::Interrupted;
        pollfd pfd{ctx_->fd, POLLIN, 0};
        int rc = ::poll(&pfd, 1, until.remaining_ms(timeout_ms));
        if (rc > 0) break;
        if (rc == 0) {
            if (until.expired()) return ReadResult::Timeout;
            continue;
        }
        // A signal: the loop asks `interrupted` and polls again for the time that is left.
        if (errno != EINTR) fail(std::string("poll: ") + std::strerror(errno));
    }
    if (redisBufferRead(ctx_) != REDIS_OK) fail(context_error(ctx_));
    return ReadResult::Data;
}

bool Connection::healthy() const {
    return !broken_ && ctx_ && !ctx_->err;
}

bool Connection::reusable_for_next_command() const {
    if (broken_ || !ctx_ || ctx_->err || owner_ != process::current_tag()) return false;
    if (std::chrono::steady_clock::now() - last_reply_ < kTrustedAfterReply) return true;
    return reusable();
}

bool Connection::reusable() const {
    if (broken_ || !ctx_ || ctx_->err || owner_ != process::current_tag()) return false;
    // A healthy idle connection has nothing to read; EOF, a reset or stray bytes all show up
    // as readable. One poll() system call, no round trip.
    pollfd pfd{ctx_->fd, POLLIN, 0};
    int rc;
    do {
        rc = ::poll(&pfd, 1, 0);
    } while (rc < 0 && errno == EINTR);  // a signal says nothing about the connection
    return rc == 0;
}

}  // namespace nativelock::redis
