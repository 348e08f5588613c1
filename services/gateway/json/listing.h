#pragma once
// Query parameters and the pagination envelope shared by every list endpoint.

#include <cstdint>
#include <string>

#include "common/core/pagination.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

// `page` and `page_size` from the query; INVALID_PAGINATION unless positive integers.
feedback::common::v1::PageRequest pageRequestFrom(const HttpRequest& request);

// {"count", "next", "previous", "results"}: `results_json` is the rendered array; next and
// previous are absolute URLs keeping the other query parameters.
std::string renderEnvelope(const RequestContext& ctx,
                           const feedback::common::v1::PageRequest& page_request, int64_t count,
                           const std::string& results_json);

}  // namespace feedback::gateway
