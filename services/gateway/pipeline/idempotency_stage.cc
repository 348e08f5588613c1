// Idempotency-Key, after Stripe: the key is scoped to the workspace (public intake: to the
// workspace, link and response), its first request claims it in Redis (SET NX), and that
// request's answer replaces the claim for 24 h. Answers of 5xx free the key, so a retry after
// an outage runs again.
//
// What Redis holds is useless without the Idempotency-Key itself: the record's name is a
// hash of a secret derived from it, the request's fingerprint an HMAC under that secret, and
// the answer (which may carry an API key or a response token) is sealed with it.
//   fb:idem:<hex>  "P" + fingerprint + owner   while the first request runs
//                  "D" + fingerprint + sealed answer   for 24 h after
#include "common/core/crypto.h"
#include "common/core/log.h"
#include "common/core/secret_box.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/http/stored_response.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {
namespace {

constexpr std::size_t kMaxKeyLength = 255;
constexpr int kAnswerKeptSeconds = 24 * 3600;
constexpr std::size_t kFingerprintLength = 64;
// Beyond a long route's longest call (RouteAttributes::longest_call): its answer's way back.
constexpr auto kClaimMargin = std::chrono::seconds(30);

constexpr std::string_view kStoreScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0
)lua";

constexpr std::string_view kReleaseScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
)lua";

// Whose keys these are: a workspace's API, or one link's (and response's) intake.
std::string scopeOf(const RequestContext& ctx) {
  std::string scope = ctx.route->attributes.access == Access::kApiKey ? "api:" : "intake:";
  scope += ctx.caller->workspace().uuid();
  if (ctx.route->attributes.access == Access::kPublic) {
    for (const auto& param : ctx.params) {
      scope += '/';
      scope += param;
    }
  }
  return scope;
}

SecretBox boxOf(const std::string& secret) {
  // 32 bytes always make a key.
  return *SecretBox::fromBase64Key(crypto::base64Encode(secret));
}

HttpResponse unavailable(const RequestContext& ctx) {
  return errorResponse(
      ApiError(ErrorCode::kServiceUnavailable, "Idempotency-Key cannot be checked now."),
      ctx.request_id);
}

}  // namespace

IdempotencyStage::IdempotencyStage(RedisClient& redis, Metrics& metrics,
                                   std::chrono::milliseconds claim_ttl)
    : redis_(redis),
      metrics_(metrics),
      claim_ms_(std::to_string(claim_ttl.count())),
      store_(kStoreScript),
      release_(kReleaseScript) {
  redis_.addScript(store_.text());
  redis_.addScript(release_.text());
}

void IdempotencyStage::decode(const ContextPtr& ctx, Chain chain) {
  const auto& request = ctx->request;
  if (!ctx->route->attributes.idempotent || request.method != "POST" ||
      !request.hasHeader("idempotency-key")) {
    return chain.next();
  }
  std::string_view key = request.header("idempotency-key");
  if (key.empty() || key.size() > kMaxKeyLength) {
    throw ApiError(ErrorCode::kValidationError, "Idempotency-Key must be 1 to 255 characters.",
                   {{"Idempotency-Key", "must be 1 to 255 characters"}});
  }
  ctx->idempotency.secret = crypto::hmacSha256(key, "feedback idempotency v1\n" + scopeOf(*ctx));
  std::string fingerprint = crypto::toHex(crypto::hmacSha256(
      ctx->idempotency.secret, request.method + ' ' + request.target + '\n' + request.body));
  ctx->idempotency.record = "fb:idem:" + crypto::sha256Hex(ctx->idempotency.secret);
  ctx->idempotency.claim = 'P' + fingerprint + crypto::randomBase62(16);
  // A claim outlives the request that holds it, however long its route's call may take.
  const auto longest = ctx->route->attributes.longest_call;
  redis_.command(
      {"SET", ctx->idempotency.record, ctx->idempotency.claim, "NX", "PX",
       longest.count() > 0
           ? std::to_string(std::chrono::milliseconds(longest + kClaimMargin).count())
           : claim_ms_,
       "GET"},
      [this, ctx, chain](std::optional<RedisReply> reply) { claimed(ctx, chain, reply); });
}

void IdempotencyStage::claimed(const ContextPtr& ctx, const Chain& chain,
                               const std::optional<RedisReply>& reply) {
  if (!reply || reply->type == RedisReply::Type::kError) {
    ++metrics_.idempotency_unavailable;
    ctx->idempotency.record.clear();
    return chain.reply(unavailable(*ctx));
  }
  if (reply->type == RedisReply::Type::kNil) return chain.next();  // the key is ours
  const std::string held = reply->str;
  ctx->idempotency.record.clear();  // someone else's: nothing to store on the way out
  std::string_view fingerprint =
      std::string_view(ctx->idempotency.claim).substr(1, kFingerprintLength);
  if (held.size() < 1 + kFingerprintLength ||
      std::string_view(held).substr(1, kFingerprintLength) != fingerprint) {
    ++metrics_.idempotency_reused;
    return chain.reply(errorResponse(ApiError(ErrorCode::kIdempotencyKeyReused), ctx->request_id));
  }
  if (held[0] == 'P') {
    ++metrics_.idempotency_in_use;
    return chain.reply(errorResponse(ApiError(ErrorCode::kIdempotencyKeyInUse), ctx->request_id));
  }
  auto opened = boxOf(ctx->idempotency.secret).open(held.substr(1 + kFingerprintLength));
  auto replay = opened ? restoreResponse(*opened) : std::nullopt;
  if (held[0] != 'D' || !replay) {
    log::error("idempotency_record_unreadable", {{"request_id", ctx->request_id}});
    return chain.reply(unavailable(*ctx));
  }
  ++metrics_.idempotency_replayed;
  replay->setHeader("Idempotent-Replayed", "true");
  chain.reply(std::move(*replay));
}

void IdempotencyStage::encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) {
  if (ctx->idempotency.record.empty()) return unwind.next(std::move(response));
  if (response.status >= 500) {
    redis_.command(release_.call({ctx->idempotency.record}, {ctx->idempotency.claim}),
                   [](std::optional<RedisReply>) {});
    return unwind.next(std::move(response));
  }
  std::string value = 'D' + ctx->idempotency.claim.substr(1, kFingerprintLength) +
                      boxOf(ctx->idempotency.secret).seal(storeResponse(response));
  redis_.command(
      store_.call({ctx->idempotency.record},
                  {ctx->idempotency.claim, value, std::to_string(kAnswerKeptSeconds)}),
      // The answer waits until it is stored, so that a retry arriving right after it replays.
      [this, ctx, unwind, response = std::move(response)](std::optional<RedisReply> reply) mutable {
        if (!reply || reply->type != RedisReply::Type::kInteger || reply->integer != 1) {
          ++metrics_.idempotency_store_failures;
          log::warn("idempotency_answer_not_stored", {{"request_id", ctx->request_id}});
        }
        unwind.next(std::move(response));
      });
}

}  // namespace feedback::gateway
