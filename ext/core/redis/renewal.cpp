#include "redis/renewal.hpp"

#include "common/error.hpp"
#include "redis/lock.hpp"

namespace nativelock::redis {

namespace {

class KeyRenewal : public renew::Renewal {
  public:
    KeyRenewal(const ConnectionParams &params, ExtendFn extend)
        : params_(params), pool_key_("redis " + params.pool_key()), extend_(std::move(extend)) {
        // A renewal waits for no lock. Its round trip is bounded (0 would mean "no limit"): a
        // server that stalls must not hold up the other leases, nor a holder waiting in
        // Lease::reset() for this renewal to land.
        params_.connect_timeout = renew::bounded_timeout(params_.connect_timeout);
        params_.read_timeout = renew::bounded_timeout(params_.read_timeout);
    }

    renew::Outcome renew(renew::Connections &connections) override {
        try {
            auto &conn = connections.get<Connection>(
                pool_key_, [&] { return std::make_unique<Connection>(params_); });
            return extend_(conn) ? renew::Outcome::Renewed : renew::Outcome::Lost;
        } catch (const ConnectionError &) {
            // Opened anew on the next try (a server restart, a network fault).
            connections.drop(pool_key_);
            return renew::Outcome::Failed;
        }
    }

  private:
    ConnectionParams params_;
    std::string pool_key_;
    ExtendFn extend_;
};

}  // namespace

std::unique_ptr<renew::Renewal> make_renewal(const ConnectionParams &params, ExtendFn extend) {
    return std::make_unique<KeyRenewal>(params, std::move(extend));
}

std::unique_ptr<renew::Renewal> make_renewal(const ConnectionParams &params, std::string key,
                                             std::string value, long long ttl_ms) {
    return make_renewal(params,
                        [key = std::move(key), value = std::move(value), ttl_ms](Connection &conn) {
                            return extend_at_least(conn, key, value, ttl_ms);
                        });
}

}  // namespace nativelock::redis
