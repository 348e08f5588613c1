#include "common/core/errors.h"

#include <catch2/catch.hpp>
#include <set>

using feedback::ApiError;
using feedback::ErrorCode;

TEST_CASE("errors: the table gives each contract code its HTTP status", "[errors]") {
  struct Row {
    ErrorCode code;
    const char* name;
    int status;
  };
  for (Row row : {Row{ErrorCode::kNameRequired, "NAME_REQUIRED", 400},
                  Row{ErrorCode::kSlugConflict, "SLUG_CONFLICT", 400},
                  Row{ErrorCode::kInvalidJson, "INVALID_JSON", 400},
                  Row{ErrorCode::kValidationError, "VALIDATION_ERROR", 400},
                  Row{ErrorCode::kInvalidScope, "INVALID_SCOPE", 400},
                  Row{ErrorCode::kAuthenticationRequired, "AUTHENTICATION_REQUIRED", 401},
                  Row{ErrorCode::kInvalidApiKey, "INVALID_API_KEY", 401},
                  Row{ErrorCode::kInsufficientScope, "INSUFFICIENT_SCOPE", 403},
                  Row{ErrorCode::kLinkLimitReached, "LINK_LIMIT_REACHED", 403},
                  Row{ErrorCode::kNotFound, "", 404},
                  Row{ErrorCode::kInvalidPage, "INVALID_PAGE", 404},
                  Row{ErrorCode::kMethodNotAllowed, "METHOD_NOT_ALLOWED", 405},
                  Row{ErrorCode::kLinkPaused, "LINK_PAUSED", 409},
                  Row{ErrorCode::kPayloadTooLarge, "PAYLOAD_TOO_LARGE", 413},
                  Row{ErrorCode::kUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", 415},
                  Row{ErrorCode::kRangeNotSatisfiable, "RANGE_NOT_SATISFIABLE", 416},
                  Row{ErrorCode::kIdempotencyKeyInUse, "IDEMPOTENCY_KEY_IN_USE", 409},
                  Row{ErrorCode::kIdempotencyKeyReused, "IDEMPOTENCY_KEY_REUSED", 422},
                  Row{ErrorCode::kRateLimited, "RATE_LIMITED", 429},
                  Row{ErrorCode::kServiceUnavailable, "SERVICE_UNAVAILABLE", 503}}) {
    INFO(row.name);
    CHECK(feedback::errorSpec(row.code).name == row.name);
    CHECK(feedback::errorSpec(row.code).http_status == row.status);
    if (*row.name) CHECK(feedback::errorCodeFromName(row.name) == row.code);
  }
}

TEST_CASE("errors: names are unique and every code has a message", "[errors]") {
  std::set<std::string_view> names;
  for (int i = 0; i <= static_cast<int>(ErrorCode::kServiceUnavailable); ++i) {
    const auto& spec = feedback::errorSpec(static_cast<ErrorCode>(i));
    CHECK(spec.code == static_cast<ErrorCode>(i));
    CHECK_FALSE(spec.default_message.empty());
    CHECK(names.insert(spec.name).second);
  }
}
