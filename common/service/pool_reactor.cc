#include "common/service/pool_reactor.h"

#include <pqxx/except>

#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"

namespace feedback::service {

grpc::ServerUnaryReactor* onPool(grpc::CallbackServerContext* context, PgPool& pool,
                                 Counters& counters, std::string_view method,
                                 std::function<void(PgSession&)> body) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  std::string request_id;
  const auto& metadata = context->client_metadata();
  if (auto it = metadata.find("x-request-id"); it != metadata.end()) {
    request_id.assign(it->second.data(), std::min<std::size_t>(it->second.size(), 128));
  }
  std::string series = "rpc_total{method=\"" + std::string(method) + "\",code=\"";
  bool queued = pool.trySubmit([reactor, &counters, series, request_id = std::move(request_id),
                                body = std::move(body)](PgSession& session) {
    grpc::Status status = grpckit::guarded(
        [&] {
          try {
            body(session);
          } catch (const pqxx::broken_connection& e) {
            session.reset();  // the next call on this worker reconnects
            log::warn("postgres_connection_lost",
                      {{"error", e.what()}, {"request_id", request_id}});
            throw ApiError(ErrorCode::kServiceUnavailable, "The database is unavailable.");
          }
        },
        request_id);
    counters.increment(series + std::string(grpckit::statusName(status.error_code())) + "\"}");
    reactor->Finish(status);
  });
  if (!queued) {
    counters.increment(series + "UNAVAILABLE\"}");
    reactor->Finish(
        grpckit::toStatus(ApiError(ErrorCode::kServiceUnavailable, "The service is busy.")));
  }
  return reactor;
}

}  // namespace feedback::service
