#include "mysql/renewal.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace nativelock::mysql {

namespace {

class RowRenewal : public renew::Renewal {
  public:
    RowRenewal(const ConnectParams &params, QuoteStyle style, std::string table, std::string name,
               unsigned long long holder, long long ttl, std::string identity)
        : params_(params),
          session_key_("mysql " + params.key()),
          style_(style),
          table_(std::move(table)),
          name_(std::move(name)),
          holder_(holder),
          ttl_(ttl),
          identity_(std::move(identity)) {
        // A renewal waits for no lock: its statements only need short timeouts (see
        // renew::bounded_timeout()).
        params_.connect_timeout = renew::bounded_timeout(params_.connect_timeout);
        params_.read_timeout = renew::bounded_timeout(params_.read_timeout);
    }

    renew::Outcome renew(renew::Connections &connections) override {
        try {
            auto &session = connections.get<NativeSession>(
                session_key_, [&] { return std::make_unique<NativeSession>(params_); });
            Protocol protocol(session, style_, table_);
            return protocol.extend_for(name_, holder_, ttl_, identity_) ? renew::Outcome::Renewed
                                                                        : renew::Outcome::Lost;
        } catch (const ConnectionError &) {
            connections.drop(session_key_);
            return renew::Outcome::Failed;
        }
    }

  private:
    ConnectParams params_;
    std::string session_key_;
    QuoteStyle style_;
    std::string table_;
    std::string name_;
    unsigned long long holder_;
    long long ttl_;
    std::string identity_;
};

}  // namespace

std::unique_ptr<renew::Renewal> make_renewal(const ConnectParams &params, QuoteStyle style,
                                             std::string table, std::string name,
                                             unsigned long long holder, long long ttl_seconds,
                                             std::string identity) {
    return std::make_unique<RowRenewal>(params, style, std::move(table), std::move(name), holder,
                                        ttl_seconds, std::move(identity));
}

}  // namespace nativelock::mysql
