#include "services/gateway/auth/redis_key_authenticator.h"

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/grpc/grpc_kit.h"
#include "common/redis/key_cache.h"

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

void RedisKeyAuthenticator::authenticate(std::string_view key_hash,
                                         std::vector<RedisCommand> prefetch, Done done) {
  std::string hash(key_hash);
  const std::size_t extra = prefetch.size();
  done = [extra, done = std::move(done)](AuthOutcome outcome) {
    outcome.prefetched.resize(extra);
    done(std::move(outcome));
  };
  std::vector<RedisCommand> commands;
  commands.reserve(1 + prefetch.size());
  // With rate limits the key's lookup is its admission, unless a grant or a refusal kept
  // here already decides the request.
  std::optional<RateDecision> decided = limiter_ ? limiter_->takeGranted(hash) : std::nullopt;
  const bool admit = limiter_ && !decided;
  commands.push_back(admit ? limiter_->keyAdmission(hash)
                           : RedisCommand{"GET", keycache::redisKey(hash)});
  for (auto& command : prefetch) commands.push_back(std::move(command));
  if (decided) {
    done = [decided, done = std::move(done)](AuthOutcome outcome) {
      outcome.rate_decided = decided;
      done(std::move(outcome));
    };
  }
  // Refused by a refusal kept here, for a key this loop found valid within the refusal's
  // longest life: 429 needs no lookup. A revocation since comes by its channel, and the way
  // out (CredentialsStage::encode) answers 401 for it, or asks Redis when the channel may have
  // missed one.
  const bool refused_here = decided && !decided->admitted;
  if (refused_here) {
    const auto now = std::chrono::steady_clock::now();
    if (auto caller = records_.recent(hash, now, LocalGrants::kMaxRefusal)) {
      ++metrics_.key_lookups_skipped;
      return done(AuthOutcome{AuthOutcome::Kind::kAccepted, std::move(caller), {}});
    }
  }
  redis_.pipeline(std::move(commands), [this, admit, refused_here, hash = std::move(hash),
                                        done = std::move(done)](RedisReplies replies) mutable {
    RedisReplies prefetched(std::make_move_iterator(replies.begin() + 1),
                            std::make_move_iterator(replies.end()));
    std::optional<RedisReply> reply = std::move(replies[0]);
    // Whether this request is refused: its key's validity, found now, then spares the lookups
    // of the requests its kept refusal decides (above). Admitted requests keep nothing.
    bool refused = refused_here;
    if (admit) {
      auto admission = std::move(reply);
      reply = RateLimiter::recordIn(admission);
      const auto answer = RateLimiter::read(admission);
      refused = answer.outcome == RateLimiter::Outcome::kCounted && !answer.decision.admitted;
      done = [admission = std::move(admission),
              done = std::move(done)](AuthOutcome outcome) mutable {
        outcome.admission_sent = true;
        outcome.admission = std::move(admission);
        done(std::move(outcome));
      };
    }
    if (!reply || reply->type == RedisReply::Type::kError) {
      ++metrics_.key_cache_bypassed;
      return verify(std::move(hash), false, {}, std::move(done));
    }
    if (reply->type == RedisReply::Type::kString) {
      if (reply->str == keycache::kRevoked) {
        ++metrics_.key_cache_hits;
        return done(AuthOutcome{AuthOutcome::Kind::kRejected});
      }
      if (auto caller = records_.parse(reply->str)) {
        ++metrics_.key_cache_hits;
        if (refused) records_.accepted(hash, caller, std::chrono::steady_clock::now());
        return done(
            AuthOutcome{AuthOutcome::Kind::kAccepted, std::move(caller), std::move(prefetched)});
      }
    }
    ++metrics_.key_cache_misses;
    verify(std::move(hash), true, std::move(prefetched), std::move(done));
  });
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
                   verify(hash, false, {}, [done](AuthOutcome outcome) {
                     done(outcome.kind != AuthOutcome::Kind::kRejected);
                   });
                 });
}

void RedisKeyAuthenticator::verify(std::string key_hash, bool fill_cache, RedisReplies prefetched,
                                   Done done) {
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
      [this, call, fill_cache, prefetched = std::move(prefetched),
       done = std::move(done)](grpc::Status status) mutable {
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
                             std::move(*call->response.mutable_caller())),
                         std::move(prefetched)});
      });
}

}  // namespace feedback::gateway
