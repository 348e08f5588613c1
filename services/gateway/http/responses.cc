#include "services/gateway/http/responses.h"

#include "common/json_writer.h"

namespace feedback::gateway {

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

}  // namespace feedback::gateway
