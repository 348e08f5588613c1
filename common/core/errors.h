#pragma once
// The error-code table (docs/api.md "Errors"): the one place that maps an error code to its
// HTTP status, its gRPC status and a default message.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace feedback {

enum class ErrorCode {
  kNotFound,  // 404 with a null code
  kNameRequired,
  kSlugConflict,
  kInvalidSlug,
  kInvalidQuestionType,
  kInvalidConfiguration,
  kInvalidCondition,
  kValidationError,
  kInvalidJson,
  kInvalidPagination,
  kInvalidOrdering,
  kInvalidScope,
  kInvalidWebhookUrl,
  kInvalidEvent,
  kInvalidAnswer,
  kRequiredAnswerMissing,
  kAuthenticationRequired,
  kInvalidApiKey,
  kInsufficientScope,
  kLinkLimitReached,
  kInvalidPage,
  kMethodNotAllowed,
  kLinkPaused,
  kResponseAlreadySubmitted,
  kNoFollowUpPending,
  kPayloadTooLarge,
  kUnsupportedMediaType,
  kRangeNotSatisfiable,
  kIdempotencyKeyInUse,
  kIdempotencyKeyReused,
  kRateLimited,
  kInternalError,
  kServiceUnavailable,
};

struct ErrorSpec {
  ErrorCode code;
  // The wire name; empty for kNotFound, whose code is JSON null.
  std::string_view name;
  int http_status;
  // A grpc::StatusCode value; kept as int so this header stays free of gRPC.
  int grpc_status;
  std::string_view default_message;
};

const ErrorSpec& errorSpec(ErrorCode code);
std::optional<ErrorCode> errorCodeFromName(std::string_view name);

using ErrorDetails = std::map<std::string, std::string>;

// An error that reaches the client as the contract's error body.
class ApiError : public std::runtime_error {
 public:
  ApiError(ErrorCode code, std::string message = {}, ErrorDetails details = {});
  ErrorCode code() const { return code_; }
  const ErrorDetails& details() const { return details_; }
  const ErrorSpec& spec() const { return errorSpec(code_); }

 private:
  ErrorCode code_;
  ErrorDetails details_;
};

}  // namespace feedback
