#include "services/gateway/auth/authenticator.h"

#include <chrono>

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/grpc/grpc_kit.h"
#include "common/redis/key_cache.h"
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

void Authenticator::authenticate(std::string_view api_key, std::string prefetch_key, Done done) {
  if (!looksLikeApiKey(api_key)) {
    done(AuthOutcome{AuthOutcome::Kind::kRejected, {}, std::nullopt});
    return;
  }
  std::string hash = crypto::sha256Hex(api_key);
  done = [hash, done = std::move(done)](AuthOutcome outcome) {
    outcome.key_hash = hash;
    done(std::move(outcome));
  };
  std::vector<std::vector<std::string>> commands{{"GET", keycache::redisKey(hash)}};
  if (!prefetch_key.empty()) commands.push_back({"GET", std::move(prefetch_key)});
  redis_.pipeline(std::move(commands), [this, hash = std::move(hash), done = std::move(done)](
                                           std::vector<std::optional<RedisReply>> replies) mutable {
    std::optional<RedisReply> prefetched;
    if (replies.size() > 1) prefetched = std::move(replies[1]);
    const auto& reply = replies[0];
    if (!reply || reply->type == RedisReply::Type::kError) {
      ++metrics_.key_cache_bypassed;
      return verify(std::move(hash), false, std::nullopt, std::move(done));
    }
    if (reply->type == RedisReply::Type::kString) {
      if (reply->str == keycache::kRevoked) {
        ++metrics_.key_cache_hits;
        return done(AuthOutcome{AuthOutcome::Kind::kRejected, {}, std::nullopt});
      }
      AuthOutcome outcome{AuthOutcome::Kind::kAccepted, {}, std::move(prefetched)};
      std::string_view record(reply->str);
      if (record.substr(0, keycache::kRecordPrefix.size()) == keycache::kRecordPrefix &&
          outcome.caller.ParseFromArray(
              record.data() + keycache::kRecordPrefix.size(),
              static_cast<int>(record.size() - keycache::kRecordPrefix.size()))) {
        ++metrics_.key_cache_hits;
        return done(std::move(outcome));
      }
      prefetched = std::move(outcome.prefetched);
    }
    ++metrics_.key_cache_misses;
    verify(std::move(hash), true, std::move(prefetched), std::move(done));
  });
}

void Authenticator::verify(std::string key_hash, bool fill_cache,
                           std::optional<RedisReply> prefetched, Done done) {
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
      [this, call, fill_cache, prefetched = std::move(prefetched),
       done = std::move(done)](grpc::Status status) mutable {
        if (!status.ok()) {
          ApiError error = grpckit::fromStatus(status);
          auto kind = error.code() == ErrorCode::kInvalidApiKey ? AuthOutcome::Kind::kRejected
                                                                : AuthOutcome::Kind::kUnavailable;
          return done(AuthOutcome{kind, {}, std::nullopt});
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
        done(AuthOutcome{AuthOutcome::Kind::kAccepted, call->response.caller(),
                         std::move(prefetched)});
      });
}

}  // namespace feedback::gateway
