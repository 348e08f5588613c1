#include "services/gateway/auth/authenticator.h"

#include <chrono>

#include "common/crypto.h"
#include "common/errors.h"
#include "common/grpc_kit.h"
#include "common/key_cache.h"
#include "services/gateway/routes/backend_call.h"

namespace feedback::gateway {

bool looksLikeApiKey(std::string_view key) {
  constexpr std::string_view kPrefix = "sk_live_";
  if (key.size() <= kPrefix.size() || key.size() > 128 ||
      key.substr(0, kPrefix.size()) != kPrefix) {
    return false;
  }
  for (char c : key.substr(kPrefix.size())) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

void Authenticator::authenticate(std::string_view api_key, Done done) {
  if (!looksLikeApiKey(api_key)) {
    done(AuthOutcome{AuthOutcome::Kind::kRejected, {}});
    return;
  }
  std::string hash = crypto::sha256Hex(api_key);
  std::string cache_key = keycache::redisKey(hash);
  redis_.command(
      {"GET", std::move(cache_key)}, [this, hash = std::move(hash), done = std::move(done)](
                                         std::optional<RedisReply> reply) mutable {
        if (!reply || reply->type == RedisReply::Type::kError) {
          ++metrics_.key_cache_bypassed;
          return verify(std::move(hash), false, std::move(done));
        }
        if (reply->type == RedisReply::Type::kString) {
          if (reply->str == keycache::kRevoked) {
            ++metrics_.key_cache_hits;
            return done(AuthOutcome{AuthOutcome::Kind::kRejected, {}});
          }
          AuthOutcome outcome{AuthOutcome::Kind::kAccepted, {}};
          std::string_view record(reply->str);
          if (record.substr(0, keycache::kRecordPrefix.size()) == keycache::kRecordPrefix &&
              outcome.caller.ParseFromArray(
                  record.data() + keycache::kRecordPrefix.size(),
                  static_cast<int>(record.size() - keycache::kRecordPrefix.size()))) {
            ++metrics_.key_cache_hits;
            return done(std::move(outcome));
          }
        }
        ++metrics_.key_cache_misses;
        verify(std::move(hash), true, std::move(done));
      });
}

void Authenticator::verify(std::string key_hash, bool fill_cache, Done done) {
  struct Call {
    grpc::ClientContext client;
    feedback::tokens::v1::VerifyKeyRequest request;
    feedback::tokens::v1::VerifyKeyResponse response;
  };
  auto call = std::make_shared<Call>();
  call->request.set_key_hash(key_hash);
  call->client.set_deadline(std::chrono::system_clock::now() + backendTimeout());
  tokens_.async()->VerifyKey(
      &call->client, &call->request, &call->response,
      [this, call, fill_cache, done = std::move(done)](grpc::Status status) {
        if (!status.ok()) {
          ApiError error = grpckit::fromStatus(status);
          auto kind = error.code() == ErrorCode::kInvalidApiKey ? AuthOutcome::Kind::kRejected
                                                                : AuthOutcome::Kind::kUnavailable;
          return done(AuthOutcome{kind, {}});
        }
        if (fill_cache) {
          // NX: never overwrite a revocation tombstone written meanwhile.
          std::string record(keycache::kRecordPrefix);
          record += call->response.caller().SerializeAsString();
          redis_.command({"SET", keycache::redisKey(call->request.key_hash()), std::move(record),
                          "NX", "EX", std::to_string(keycache::kRecordTtlSeconds)},
                         [this](std::optional<RedisReply> reply) {
                           if (!reply || reply->type == RedisReply::Type::kError) {
                             ++metrics_.key_cache_fill_failures;
                           }
                         });
        }
        done(AuthOutcome{AuthOutcome::Kind::kAccepted, call->response.caller()});
      });
}

}  // namespace feedback::gateway
