#include "services/gateway/cache/response_counts.h"

#include <charconv>

#include "common/core/time.h"
#include "common/redis/response_counts.h"
#include "feedback/responses/v1/responses.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"

namespace feedback::gateway {

namespace rv1 = feedback::responses::v1;

struct ResponseCounts::Stub {
  std::unique_ptr<rv1::ResponsesService::Stub> responses;
};

ResponseCounts::ResponseCounts(const Backends& backends, RedisClient& redis)
    : stub_(std::make_unique<Stub>(Stub{rv1::ResponsesService::NewStub(backends.responses)})),
      redis_(redis) {}

ResponseCounts::~ResponseCounts() = default;

std::optional<int64_t> redisInteger(const std::optional<RedisReply>& reply) {
  if (!reply) return std::nullopt;
  return redisInteger(*reply);
}

std::optional<int64_t> redisInteger(const RedisReply& reply) {
  if (reply.type != RedisReply::Type::kString) return std::nullopt;
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(reply.str.data(), reply.str.data() + reply.str.size(), value);
  if (ec != std::errc() || ptr != reply.str.data() + reply.str.size()) return std::nullopt;
  return value;
}

void ResponseCounts::fetch(const ContextPtr& ctx, std::vector<std::string> link_uuids,
                           std::function<void(Counts)> then, OnError on_error) {
  rv1::CountResponsesRequest request;
  *request.mutable_caller() = *ctx->caller;
  for (auto& uuid : link_uuids) request.add_link_uuids(std::move(uuid));
  auto& stub = *stub_->responses;
  callAsync<rv1::CountResponsesResponse>(
      ctx, std::move(request),
      [&stub](auto* c, auto* q, auto* r, auto done) {
        stub.async()->CountResponses(c, q, r, std::move(done));
      },
      [then = std::move(then)](const rv1::CountResponsesResponse& r) {
        then(Counts(r.completed().begin(), r.completed().end()));
      },
      std::move(on_error));
}

namespace {

// The count when it may be trusted: there is one and no submission is pending.
std::optional<int64_t> trustedCount(const std::optional<RedisReply>& count,
                                    const std::optional<RedisReply>& pending) {
  if (!pending || pending->type != RedisReply::Type::kInteger || pending->integer != 0) {
    return std::nullopt;
  }
  return redisInteger(count);
}

}  // namespace

void ResponseCounts::forLink(const ContextPtr& ctx, const std::string& link_uuid,
                             const std::optional<RedisReply>& count,
                             const std::optional<RedisReply>& pending,
                             std::function<void(int64_t)> then, OnError on_error) {
  if (auto trusted = trustedCount(count, pending)) return then(*trusted);
  refresh(ctx, link_uuid, count && count->type != RedisReply::Type::kError, std::move(then),
          std::move(on_error));
}

void ResponseCounts::refresh(const ContextPtr& ctx, const std::string& link_uuid, bool record,
                             std::function<void(int64_t)> then, OnError on_error) {
  const int64_t read_started_ms = nowMicros() / 1000;
  fetch(
      ctx, {link_uuid},
      [this, link_uuid, record, read_started_ms, then = std::move(then)](Counts counts) {
        const int64_t count = counts[link_uuid];
        // Only raises the count, and not after an erasure that may have committed after the
        // read began; a submission that began lately keeps the link untrusted. Fire and
        // forget: should it fail, the next read asks again.
        if (record) {
          redis_.command(
              {"EVAL", std::string(responsecount::kRecoverScript), "3",
               responsecount::countKey(link_uuid), responsecount::pendingKey(link_uuid),
               responsecount::loweredKey(link_uuid), std::to_string(count),
               std::to_string(responsecount::kTtlSeconds), std::to_string(read_started_ms),
               std::to_string(responsecount::settledBefore(read_started_ms)),
               std::to_string(responsecount::kClockSkewMarginMs),
               std::to_string(responsecount::kLoweredTtlSeconds)},
              [](std::optional<RedisReply>) {});
        }
        then(count);
      },
      std::move(on_error));
}

}  // namespace feedback::gateway
