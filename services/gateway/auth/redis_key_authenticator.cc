#include "services/gateway/auth/redis_key_authenticator.h"

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/grpc/grpc_kit.h"
#include "common/redis/key_cache.h"
#include "services/gateway/ratelimit/local_grants.h"
#include "services/gateway/ratelimit/rate_window_script.h"

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

std::string keyHash(std::string_view key) {
  return crypto::sha256Hex(key);
}

void RedisKeyAuthenticator::authenticate(std::string_view key_hash, RedisRoundTrip& trip,
                                         std::optional<RedisRoundTrip::Slot> admission, Done done) {
  const RedisRoundTrip::Slot record =
      admission ? *admission : trip.add({"GET", keycache::redisKey(key_hash)});
  redis_.pipeline(trip.send(redis_.connectionEpoch()),
                  [this, &trip, record, in_admission = admission.has_value(),
                   hash = std::string(key_hash), done = std::move(done)](RedisReplies replies) {
                    trip.receive(std::move(replies), redis_.connectionEpoch());
                    auto reply = in_admission ? ratewindow::keyRecordIn(trip.answer(record))
                                              : trip.take(record);
                    if (!reply || reply->type == RedisReply::Type::kError) {
                      ++metrics_.key_cache_bypassed;
                      return verify(std::move(hash), false, std::move(done));
                    }
                    if (reply->type == RedisReply::Type::kString) {
                      if (reply->str == keycache::kRevoked) {
                        ++metrics_.key_cache_hits;
                        return done(AuthOutcome{AuthOutcome::Kind::kRejected});
                      }
                      if (auto caller = records_.parse(reply->str)) {
                        ++metrics_.key_cache_hits;
                        return done(AuthOutcome{AuthOutcome::Kind::kAccepted, std::move(caller)});
                      }
                    }
                    ++metrics_.key_cache_misses;
                    verify(std::move(hash), true, std::move(done));
                  });
}

CallerPtr RedisKeyAuthenticator::recentlyValid(std::string_view key_hash) {
  auto caller =
      records_.recent(key_hash, std::chrono::steady_clock::now(), LocalGrants::kMaxRefusal);
  if (caller) ++metrics_.key_lookups_skipped;
  return caller;
}

void RedisKeyAuthenticator::foundValid(std::string_view key_hash, CallerPtr caller) {
  records_.accepted(key_hash, std::move(caller), std::chrono::steady_clock::now());
}

void RedisKeyAuthenticator::stillValid(std::string_view key_hash, std::function<void(bool)> done) {
  redis_.command({"GET", keycache::redisKey(key_hash)},
                 [this, hash = std::string(key_hash),
                  done = std::move(done)](std::optional<RedisReply> reply) {
                   if (reply && reply->type == RedisReply::Type::kString) {
                     if (reply->str == keycache::kRevoked) return done(false);
                     if (records_.parse(reply->str)) return done(true);
                   }
                   // Not cached (Redis restarted, or it does not answer): the tokens service knows.
                   verify(hash, false, [done](AuthOutcome outcome) {
                     done(outcome.kind != AuthOutcome::Kind::kRejected);
                   });
                 });
}

void RedisKeyAuthenticator::verify(std::string key_hash, bool fill_cache, Done done) {
  struct Call {
    grpc::ClientContext client;
    feedback::tokens::v1::VerifyKeyRequest request;
    feedback::tokens::v1::VerifyKeyResponse response;
  };
  auto call = std::make_shared<Call>();
  call->request.set_key_hash(key_hash);
  call->client.set_deadline(std::chrono::system_clock::now() + timeout_);
  tokens_.async()->VerifyKey(
      &call->client, &call->request, &call->response,
      [this, call, fill_cache, done = std::move(done)](grpc::Status status) mutable {
        if (!status.ok()) {
          ApiError error = grpckit::fromStatus(status);
          auto kind = error.code() == ErrorCode::kInvalidApiKey ? AuthOutcome::Kind::kRejected
                                                                : AuthOutcome::Kind::kUnavailable;
          return done(AuthOutcome{kind});
        }
        if (fill_cache) {
          // NX: never overwrite a revocation tombstone written meanwhile.
          redis_.command({"SET", keycache::redisKey(call->request.key_hash()),
                          keycache::recordOf(call->response.caller()), "NX", "EX",
                          std::to_string(keycache::kRecordTtlSeconds)},
                         [this](std::optional<RedisReply> reply) {
                           if (!reply || reply->type == RedisReply::Type::kError) {
                             ++metrics_.key_cache_fill_failures;
                           }
                         });
        }
        done(AuthOutcome{AuthOutcome::Kind::kAccepted,
                         std::make_shared<const feedback::common::v1::Caller>(
                             std::move(*call->response.mutable_caller()))});
      });
}

}  // namespace feedback::gateway
