#include "services/gateway/json/listing.h"

#include <climits>

#include "common/core/errors.h"
#include "common/core/json_writer.h"
#include "services/gateway/http/query.h"

namespace feedback::gateway {
namespace {

// A positive decimal integer; values beyond int range saturate (a page that far is past the
// end; a page_size that large is capped anyway).
int positiveInteger(const std::string& text, const char* name) {
  bool digits = !text.empty() && text.size() <= 64;
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  if (!digits) {
    throw ApiError(ErrorCode::kInvalidPagination,
                   std::string(name) + " must be a positive integer.",
                   {{name, "must be a positive integer"}});
  }
  auto first = text.find_first_not_of('0');
  if (first == std::string::npos) {
    throw ApiError(ErrorCode::kInvalidPagination,
                   std::string(name) + " must be a positive integer.",
                   {{name, "must be at least 1"}});
  }
  if (text.size() - first > 9) return INT_MAX;
  return std::stoi(text.substr(first));
}

std::string pageUrl(const RequestContext& ctx, int page) {
  std::string_view forwarded = ctx.request.header("x-forwarded-proto");
  std::string url = (forwarded == "https" ? "https://" : "http://");
  std::string_view host = ctx.request.header("host");
  url += host.empty() ? std::string_view("localhost") : host;
  url += ctx.request.path();
  url += '?';
  url += Query(ctx.request.query()).with("page", std::to_string(page));
  return url;
}

}  // namespace

feedback::common::v1::PageRequest pageRequestFrom(const HttpRequest& request) {
  Query query(request.query());
  feedback::common::v1::PageRequest out;
  // Any bytes that are not digits are INVALID_PAGINATION, UTF-8 or not.
  if (auto page = query.bytes("page")) out.set_page(positiveInteger(*page, "page"));
  if (auto size = query.bytes("page_size")) out.set_page_size(positiveInteger(*size, "page_size"));
  return out;
}

std::string renderEnvelope(const RequestContext& ctx,
                           const feedback::common::v1::PageRequest& page_request, int64_t count,
                           const std::string& results_json) {
  Page page = normalizePage(page_request);
  std::string body;
  JsonWriter json(body);
  json.beginObject().field("count", count).key("next");
  if (page.offset() + page.size < count) {
    json.string(pageUrl(ctx, page.number + 1));
  } else {
    json.null();
  }
  json.key("previous");
  if (page.number > 1) {
    json.string(pageUrl(ctx, page.number - 1));
  } else {
    json.null();
  }
  json.key("results").raw(results_json).endObject();
  return body;
}

}  // namespace feedback::gateway
