#pragma once
// An answer as bytes, to be stored and given again (Idempotency-Key replays):
// "<status>\n<header count>\n" then "<name>\n<value>\n" per header, then the body.

#include <optional>
#include <string>
#include <string_view>

#include "services/gateway/http/message.h"

namespace feedback::gateway {

std::string storeResponse(const HttpResponse& response);
// nullopt when `stored` is not what storeResponse wrote.
std::optional<HttpResponse> restoreResponse(std::string_view stored);

}  // namespace feedback::gateway
