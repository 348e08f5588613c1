#include "services/gateway/http/responses.h"

#include "common/core/ids.h"
#include "common/core/json_writer.h"
#include "common/core/limits.h"

namespace feedback::gateway {

std::string requestIdFor(const HttpRequest& request) {
  std::string_view given = request.header("x-request-id");
  bool sane = !given.empty() && given.size() <= 128;
  for (char c : given) sane = sane && c > 0x20 && c < 0x7f && c != '"';
  return sane ? std::string(given) : newRequestId();
}

HttpResponse jsonResponse(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.setHeader("Content-Type", "application/json");
  response.body = std::move(body);
  return response;
}

HttpResponse errorResponse(const ApiError& error, const std::string& request_id) {
  const ErrorSpec& spec = error.spec();
  std::string body;
  JsonWriter json(body);
  json.beginObject().key("error").beginObject().key("code");
  if (spec.name.empty()) {
    json.null();
  } else {
    json.string(spec.name);
  }
  json.field("message", std::string_view(error.what()));
  if (!error.details().empty()) {
    json.key("details").beginObject();
    for (const auto& [path, message] : error.details()) json.field(path, message);
    json.endObject();
  }
  json.field("request_id", request_id).endObject().endObject();
  HttpResponse response = jsonResponse(spec.http_status, std::move(body));
  switch (error.code()) {
    case ErrorCode::kAuthenticationRequired:
      response.setHeader("WWW-Authenticate", "Bearer");
      break;
    case ErrorCode::kInvalidApiKey:
      response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
      break;
    case ErrorCode::kServiceUnavailable:
      response.setHeader("Retry-After", "1");
      break;
    default:
      break;
  }
  return response;
}

HttpResponse messageResponse(std::string_view message) {
  std::string body;
  JsonWriter(body).beginObject().field("message", message).endObject();
  return jsonResponse(200, std::move(body));
}

HttpResponse transportErrorResponse(ErrorCode code, std::string_view client_request_id) {
  HttpRequest request;
  if (!client_request_id.empty()) request.headers.emplace_back("x-request-id", client_request_id);
  std::string request_id = requestIdFor(request);
  std::string message;
  if (code == ErrorCode::kPayloadTooLarge) {
    message = "The body is larger than " + limits::describeBytes(limits::kMaxJsonBodyBytes) + ".";
  }
  HttpResponse response = errorResponse(ApiError(code, std::move(message)), request_id);
  response.setHeader("X-Request-Id", std::move(request_id));
  return response;
}

}  // namespace feedback::gateway
