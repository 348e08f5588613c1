// Links and their questions (POST and PATCH /v1/links/): any body is mapped by the gateway and
// judged by the links service, which saves a link that keeps every promise (valid slug, unique
// field keys, display order, configurations, conditions and evaluator_config that pass the
// rules when read back) or refuses it with a client error; the same body as a PATCH of the
// saved link does the same.
#include "tests/fuzz/support/links_under_test.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  boost::json::object body;
  try {
    body = feedback::gateway::parseJsonObject(feedback::fuzz::asText(data, size));
  } catch (const feedback::ApiError&) {
    return 0;
  }
  feedback::fuzz::LinksUnderTest links;
  auto created = links.create(body);
  if (!created) return 0;
  body.erase("on_finished");  // not a PATCH key
  links.update(created->uuid(), body);
  return 0;
}
