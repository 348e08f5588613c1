// Query strings as the API reads them (services/gateway/http/query.h, routes/listing.h): any
// query is decoded; page and page_size are positive integers or INVALID_PAGINATION; the
// envelope's next/previous addresses keep the other parameters and name the right page; the
// time bounds (since, until) are ISO 8601 or refused, and a parsed one prints and reads back
// the same; signed media addresses verify only when this deployment signed them.
#include <climits>

#include "common/api/media_urls.h"
#include "common/core/errors.h"
#include "common/core/text.h"
#include "common/core/time.h"
#include "services/gateway/http/query.h"
#include "services/gateway/json/listing.h"
#include "tests/fuzz/fuzz_check.h"

namespace gw = feedback::gateway;

namespace {

constexpr const char* kBlob = "0b6f7b5e-3c1f-4d6a-9b1e-2f3a4b5c6d7e";
constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";

void checkTimeBound(const std::string& text) {
  auto parsed = feedback::parseTimestamp(text);
  if (!parsed) return;
  const std::string printed = feedback::formatTimestamp(parsed->micros);
  auto again = feedback::parseTimestamp(printed);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(again->micros == parsed->micros);
}

void checkEnvelope(const gw::RequestContext& ctx, const feedback::common::v1::PageRequest& page) {
  for (int64_t count : {int64_t{0}, int64_t{25}, int64_t{1000000}}) {
    std::string body = gw::renderEnvelope(ctx, page, count, "[]");
    FUZZ_CHECK(body.starts_with("{\"count\":"));
  }
}

// The value of `name` as routes read it: text, or VALIDATION_ERROR when its bytes are not UTF-8.
std::optional<std::string> textOf(const gw::Query& query, const char* name) {
  try {
    return query.get(name);
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == feedback::ErrorCode::kValidationError);
    FUZZ_CHECK(!feedback::isValidUtf8(*query.bytes(name)));
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const auto raw = feedback::fuzz::asText(data, size);
  gw::Query query(raw);
  for (const char* name : {"search", "status", "ordering", "link_uuid", "token"}) {
    textOf(query, name);
  }
  for (const char* name : {"since", "until"}) {
    if (auto value = textOf(query, name)) checkTimeBound(*value);
  }
  // The next page's address: the page replaced, everything else kept.
  const gw::Query next(query.with("page", "7"));
  FUZZ_CHECK(next.get("page") == "7");
  FUZZ_CHECK(next.bytes("search") == query.bytes("search"));

  auto ctx = std::make_shared<gw::RequestContext>();
  ctx->request.method = "GET";
  ctx->request.target = "/v1/links/?" + std::string(raw);
  ctx->request.headers = {{"host", "api.example.com"}};
  try {
    auto page = gw::pageRequestFrom(ctx->request);
    FUZZ_CHECK(page.page() >= 0 && page.page_size() >= 0);
    checkEnvelope(*ctx, page);
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == feedback::ErrorCode::kInvalidPagination);
  }

  // Addresses last an hour from the read that gave them (MediaUrls' default lifetime).
  static const feedback::api::MediaUrls urls("fuzz-secrets-key-fuzz-secrets-key", "https");
  const int64_t now = 1700000000;
  const auto expires = query.bytes("expires").value_or("");
  const auto signature = query.bytes("signature").value_or("");
  if (urls.verify(kBlob, kWorkspace, expires, signature, now)) {
    // Only a signature this deployment made verifies.
    const std::string made = urls.url(kBlob, "h.example", kWorkspace, std::stoll(expires) - 3600);
    FUZZ_CHECK(gw::Query(made.substr(made.find('?') + 1)).bytes("signature") == signature);
  }
  // Stored answers are rendered with fresh addresses; text without a marker stays as it is.
  const std::string resolved = urls.resolve(std::string(raw), "h.example", kWorkspace, now);
  if (raw.find(feedback::api::kMediaMarkerPrefix) == std::string_view::npos) {
    FUZZ_CHECK(resolved == raw);
  }
  return 0;
}
