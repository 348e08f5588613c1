#include "common/webhooks/webhook_rules.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/url/parse.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/core/net_address.h"

namespace feedback::webhooks {
namespace {

[[noreturn]] void refuse(const std::string& field, const char* message, const char* detail) {
  throw ApiError(ErrorCode::kInvalidWebhookUrl, message, {{field, detail}});
}

// getaddrinfo has no deadline of its own (a silent name server costs its whole retry
// schedule), and registration runs on a request's worker: at most this long is waited for.
constexpr auto kLookupWait = std::chrono::seconds(2);

// True when `host`, a name, resolves to any private or loopback address now.
bool lookupIsPrivate(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0) return false;
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(found, &freeaddrinfo);
  return anyPrivateAddress(found);
}

// lookupIsPrivate within kLookupWait; a lookup that takes longer counts as not resolving now
// (and ends on its own thread, its answer unused).
bool resolvesToPrivate(const std::string& host) {
  auto verdict = std::make_shared<std::promise<bool>>();
  auto answer = verdict->get_future();
  std::thread([host, verdict] { verdict->set_value(lookupIsPrivate(host)); }).detach();
  return answer.wait_for(kLookupWait) == std::future_status::ready && answer.get();
}

// A host name as DNS and getaddrinfo read it: letters, digits, '-', '_' and dots, none of them
// percent-encoded. A name that encodes anything ("10.0.0.1%00.example") would be read by the
// resolver up to the first byte it stops at, not as the name that was checked.
bool isPlainHostName(std::string_view host) {
  for (char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return !host.empty();
}

}  // namespace

bool isEventType(std::string_view type) {
  return std::find(kEventTypes.begin(), kEventTypes.end(), type) != kEventTypes.end();
}

void checkUrl(std::string_view url, bool allow_private, const std::string& field) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed || parsed->scheme_id() != boost::urls::scheme::https || parsed->host().empty() ||
      url.size() > kMaxUrlLength) {
    refuse(field, "The webhook URL must be an absolute https:// URL.",
           "must be an absolute https:// URL of at most 2048 characters");
  }
  if (parsed->host_type() == boost::urls::host_type::name &&
      !isPlainHostName(parsed->encoded_host())) {
    refuse(field, "The webhook URL's host is not a valid host name.",
           "must have a host name of letters, digits, '-', '_' and dots");
  }
  if (parsed->has_userinfo()) {
    refuse(field, "The webhook URL must not carry a user name or password.",
           "must not contain user information");
  }
  if (allow_private) return;
  std::string host = parsed->host();
  bool is_name = parsed->host_type() == boost::urls::host_type::name;
  if (isPrivateHost(host) || (is_name && resolvesToPrivate(host))) {
    refuse(field, "The webhook URL points to a private or loopback address.",
           "must not be a private, loopback or link-local address");
  }
}

void checkSecret(std::string_view secret, const std::string& field) {
  if (secret.empty() || secret.size() > kMaxSecretLength) {
    throw ApiError(ErrorCode::kValidationError, "The webhook secret is invalid.",
                   {{field, "must be 1 to 255 characters"}});
  }
}

std::string generateSecret() {
  return std::string(kSecretPrefix) + crypto::base64Encode(crypto::randomBytes(32));
}

std::string signingKey(std::string_view secret) {
  if (secret.starts_with(kSecretPrefix)) {
    auto key = crypto::base64Decode(secret.substr(kSecretPrefix.size()));
    if (key && !key->empty()) return *key;
  }
  return std::string(secret);
}

std::string sign(std::string_view secret, std::string_view event_id, int64_t timestamp_seconds,
                 std::string_view body) {
  std::string message;
  message.reserve(event_id.size() + body.size() + 24);
  message.append(event_id).append(".").append(std::to_string(timestamp_seconds)).append(".");
  message.append(body);
  return "v1," + crypto::base64Encode(crypto::hmacSha256(signingKey(secret), message));
}

}  // namespace feedback::webhooks
