#include "services/gateway/http/responses.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using namespace feedback::gateway;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {
std::string headerOf(const HttpResponse& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return {};
}
}  // namespace

TEST_CASE("gateway: request ids are echoed when sane, generated otherwise", "[gateway]") {
  HttpRequest request;
  request.headers = {{"x-request-id", "conf-123"}};
  CHECK(requestIdFor(request) == "conf-123");
  request.headers = {{"x-request-id", "has space"}};
  CHECK(requestIdFor(request) != "has space");
  request.headers = {{"x-request-id", std::string(129, 'a')}};
  CHECK(requestIdFor(request).size() == 36);
  request.headers.clear();
  CHECK(requestIdFor(request) != requestIdFor(request));
}

TEST_CASE("gateway: the error body and its headers", "[gateway]") {
  auto r = errorResponse(ApiError(ErrorCode::kSlugConflict, "taken", {{"slug", "already exists"}}),
                         "req-1");
  CHECK(r.status == 400);
  CHECK(headerOf(r, "Content-Type") == "application/json");
  auto body = boost::json::parse(r.body);
  CHECK(body == boost::json::parse(
                    R"({"error":{"code":"SLUG_CONFLICT","message":"taken",
                        "details":{"slug":"already exists"},"request_id":"req-1"}})"));

  auto not_found = errorResponse(ApiError(ErrorCode::kNotFound), "req-2");
  CHECK(not_found.status == 404);
  CHECK(boost::json::parse(not_found.body).at("error").at("code").is_null());

  CHECK(headerOf(errorResponse(ApiError(ErrorCode::kAuthenticationRequired), "x"),
                 "WWW-Authenticate") == "Bearer");
  CHECK(headerOf(errorResponse(ApiError(ErrorCode::kInvalidApiKey), "x"), "WWW-Authenticate") ==
        "Bearer error=\"invalid_token\"");
  CHECK(headerOf(errorResponse(ApiError(ErrorCode::kServiceUnavailable), "x"), "Retry-After") ==
        "1");
}
