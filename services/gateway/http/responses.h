#pragma once
// Building answers: JSON bodies and the error body (docs/api.md "Errors"), in exactly one
// place.

#include <string>

#include "common/core/errors.h"
#include "services/gateway/http/message.h"

namespace feedback::gateway {

// The client's X-Request-Id when it is sane (1-128 visible ASCII characters), else a new one.
std::string requestIdFor(const HttpRequest& request);

HttpResponse jsonResponse(int status, std::string body);
// {"error": {"code", "message", "details"?, "request_id"}} with the error's HTTP status and
// the headers its code requires (WWW-Authenticate, Retry-After).
HttpResponse errorResponse(const ApiError& error, const std::string& request_id);
HttpResponse messageResponse(std::string_view message);
// An error answered before routing (by the HTTP server itself), with its X-Request-Id.
HttpResponse transportErrorResponse(ErrorCode code, std::string_view client_request_id);

}  // namespace feedback::gateway
