#include "services/gateway/admin.h"

#include "services/gateway/http/responses.h"

namespace feedback::gateway {

HttpResponse AdminEndpoints::handle(const HttpRequest& request) const {
  std::string_view path = request.path();
  if (path == "/healthz") return jsonResponse(200, R"({"status":"ok"})");
  if (path == "/readyz") {
    return ready_() ? jsonResponse(200, R"({"status":"ready"})")
                    : jsonResponse(503, R"({"status":"not ready"})");
  }
  if (path == "/metrics") {
    HttpResponse response;
    response.setHeader("Content-Type", "text/plain; version=0.0.4");
    response.body = metrics_.render(open_connections_());
    if (more_metrics_) response.body += more_metrics_();
    return response;
  }
  // The API's routes and what each declares (access, scope): what tests generate calls from.
  if (path == "/routes" && !route_table_.empty()) return jsonResponse(200, route_table_);
  return jsonResponse(404, R"({"status":"not found"})");
}

}  // namespace feedback::gateway
