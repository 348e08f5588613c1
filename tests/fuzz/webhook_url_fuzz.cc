// Webhook URLs and secrets (common/webhooks/webhook_rules.h, common/core/net_address.h): any
// text is accepted or refused with INVALID_WEBHOOK_URL; the host of an accepted URL is judged
// private exactly when the address getaddrinfo makes of it, without any lookup, is in a
// refused range (every spelling of a private address is caught at registration); and any
// secret either is refused or yields a signing key and a signature.
#include <netdb.h>
#include <sys/socket.h>

#include <boost/url/parse.hpp>
#include <memory>

#include "common/core/errors.h"
#include "common/core/net_address.h"
#include "common/webhooks/webhook_rules.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// What getaddrinfo makes of `host` as a numeric address (no name lookup): whether it is one,
// and whether that address is private.
std::optional<bool> numericAddressIsPrivate(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_flags = AI_NUMERICHOST;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0) return std::nullopt;
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(found, &freeaddrinfo);
  return feedback::anyPrivateAddress(found);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const auto text = feedback::fuzz::asText(data, size);
  // Private targets allowed: the URL's form alone (no name is looked up).
  bool well_formed = true;
  try {
    feedback::webhooks::checkUrl(text, true, "url");
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == feedback::ErrorCode::kInvalidWebhookUrl);
    well_formed = false;
  }
  if (well_formed) {
    auto parsed = boost::urls::parse_absolute_uri(text);
    FUZZ_CHECK(parsed.has_value());
    // What the dispatcher connects to: the host as getaddrinfo reads it (brackets removed).
    std::string host = parsed->host_type() == boost::urls::host_type::ipv6
                           ? std::string(parsed->host_address())
                           : std::string(parsed->host());
    if (auto numeric_private = numericAddressIsPrivate(host); numeric_private && *numeric_private) {
      FUZZ_CHECK(feedback::isPrivateHost(parsed->host()));
    }
  }
  try {
    feedback::webhooks::checkSecret(text, "secret");
    FUZZ_CHECK(!feedback::webhooks::signingKey(text).empty());
    FUZZ_CHECK(feedback::webhooks::sign(text, "msg_1", 1700000000, "{}").starts_with("v1,"));
  } catch (const feedback::ApiError& e) {
    FUZZ_CHECK(e.code() == feedback::ErrorCode::kValidationError);
  }
  return 0;
}
