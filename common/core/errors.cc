#include "common/core/errors.h"

#include <array>

namespace feedback {
namespace {

// gRPC status codes (grpc::StatusCode), spelled out to keep gRPC headers out.
constexpr int kInvalidArgument = 3;
constexpr int kNotFoundStatus = 5;
constexpr int kPermissionDenied = 7;
constexpr int kResourceExhausted = 8;
constexpr int kFailedPrecondition = 9;
constexpr int kAborted = 10;
constexpr int kOutOfRange = 11;
constexpr int kUnimplemented = 12;
constexpr int kInternal = 13;
constexpr int kUnavailable = 14;
constexpr int kUnauthenticated = 16;

using C = ErrorCode;
constexpr std::array kTable = {
    ErrorSpec{C::kNotFound, "", 404, kNotFoundStatus, "Not found."},
    ErrorSpec{C::kNameRequired, "NAME_REQUIRED", 400, kInvalidArgument, "A name is required."},
    ErrorSpec{C::kSlugConflict, "SLUG_CONFLICT", 400, kInvalidArgument, "The slug is taken."},
    ErrorSpec{C::kInvalidSlug, "INVALID_SLUG", 400, kInvalidArgument, "The slug is invalid."},
    ErrorSpec{C::kInvalidQuestionType, "INVALID_QUESTION_TYPE", 400, kInvalidArgument,
              "Unknown question type."},
    ErrorSpec{C::kInvalidConfiguration, "INVALID_CONFIGURATION", 400, kInvalidArgument,
              "Invalid question configuration."},
    ErrorSpec{C::kInvalidCondition, "INVALID_CONDITION", 400, kInvalidArgument,
              "Invalid question condition."},
    ErrorSpec{C::kValidationError, "VALIDATION_ERROR", 400, kInvalidArgument,
              "The request is invalid."},
    ErrorSpec{C::kInvalidJson, "INVALID_JSON", 400, kInvalidArgument,
              "The body is not valid JSON."},
    ErrorSpec{C::kInvalidPagination, "INVALID_PAGINATION", 400, kInvalidArgument,
              "page and page_size must be positive integers."},
    ErrorSpec{C::kInvalidOrdering, "INVALID_ORDERING", 400, kInvalidArgument, "Unknown ordering."},
    ErrorSpec{C::kInvalidScope, "INVALID_SCOPE", 400, kInvalidArgument, "Invalid scope."},
    ErrorSpec{C::kInvalidWebhookUrl, "INVALID_WEBHOOK_URL", 400, kInvalidArgument,
              "Invalid webhook URL."},
    ErrorSpec{C::kInvalidEvent, "INVALID_EVENT", 400, kInvalidArgument, "Invalid event."},
    ErrorSpec{C::kInvalidAnswer, "INVALID_ANSWER", 400, kInvalidArgument, "Invalid answer."},
    ErrorSpec{C::kRequiredAnswerMissing, "REQUIRED_ANSWER_MISSING", 400, kInvalidArgument,
              "A required answer is missing."},
    ErrorSpec{C::kAuthenticationRequired, "AUTHENTICATION_REQUIRED", 401, kUnauthenticated,
              "Authentication required: send Authorization: Bearer <API key>."},
    ErrorSpec{C::kInvalidApiKey, "INVALID_API_KEY", 401, kUnauthenticated,
              "The API key is invalid or revoked."},
    ErrorSpec{C::kInsufficientScope, "INSUFFICIENT_SCOPE", 403, kPermissionDenied,
              "The API key lacks the scope this operation needs."},
    ErrorSpec{C::kLinkLimitReached, "LINK_LIMIT_REACHED", 403, kResourceExhausted,
              "The workspace has reached its plan's link quota."},
    ErrorSpec{C::kInvalidPage, "INVALID_PAGE", 404, kOutOfRange, "Invalid page."},
    ErrorSpec{C::kMethodNotAllowed, "METHOD_NOT_ALLOWED", 405, kUnimplemented,
              "Method not allowed."},
    ErrorSpec{C::kLinkPaused, "LINK_PAUSED", 409, kFailedPrecondition, "The link is paused."},
    ErrorSpec{C::kResponseAlreadySubmitted, "RESPONSE_ALREADY_SUBMITTED", 409, kFailedPrecondition,
              "The response was already submitted."},
    ErrorSpec{C::kNoFollowUpPending, "NO_FOLLOW_UP_PENDING", 409, kFailedPrecondition,
              "No follow-up question is waiting for an answer."},
    ErrorSpec{C::kPayloadTooLarge, "PAYLOAD_TOO_LARGE", 413, kInvalidArgument,
              "The body is too large."},
    ErrorSpec{C::kUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", 415, kInvalidArgument,
              "Content-Type must be application/json."},
    ErrorSpec{C::kRangeNotSatisfiable, "RANGE_NOT_SATISFIABLE", 416, kOutOfRange,
              "The range names no byte of the content."},
    ErrorSpec{C::kIdempotencyKeyInUse, "IDEMPOTENCY_KEY_IN_USE", 409, kAborted,
              "A request with this Idempotency-Key is still being processed; retry once it "
              "has been answered."},
    ErrorSpec{C::kIdempotencyKeyReused, "IDEMPOTENCY_KEY_REUSED", 422, kAborted,
              "The Idempotency-Key was used with a different request."},
    ErrorSpec{C::kRateLimited, "RATE_LIMITED", 429, kResourceExhausted, "Rate limit exceeded."},
    ErrorSpec{C::kInternalError, "INTERNAL_ERROR", 500, kInternal, "Internal error."},
    ErrorSpec{C::kServiceUnavailable, "SERVICE_UNAVAILABLE", 503, kUnavailable,
              "A backend is unavailable; retry later."},
};

}  // namespace

const ErrorSpec& errorSpec(ErrorCode code) {
  for (const auto& spec : kTable) {
    if (spec.code == code) return spec;
  }
  return kTable.back();
}

std::optional<ErrorCode> errorCodeFromName(std::string_view name) {
  for (const auto& spec : kTable) {
    if (spec.name == name) return spec.code;
  }
  return std::nullopt;
}

ApiError::ApiError(ErrorCode code, std::string message, ErrorDetails details)
    : std::runtime_error(message.empty() ? std::string(errorSpec(code).default_message)
                                         : std::move(message)),
      code_(code),
      details_(std::move(details)) {}

}  // namespace feedback
