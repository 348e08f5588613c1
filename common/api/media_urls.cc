#include "common/api/media_urls.h"

#include <array>
#include <charconv>

#include "common/core/crypto.h"
#include "common/core/ids.h"

namespace feedback::api {
namespace {

constexpr std::size_t kUuidLength = 36;
// Only these keys hold addresses: a respondent's text cannot produce them, since its quotes
// are escaped inside a JSON string.
constexpr std::array<std::string_view, 2> kAddressKeys = {"\"audio_url\":\"", "\"url\":\""};

}  // namespace

std::string mediaMarker(std::string_view blob_uuid) {
  std::string out(kMediaMarkerPrefix);
  out += blob_uuid;
  return out;
}

int64_t unixSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

MediaUrls::MediaUrls(std::string_view secret, std::string scheme, std::chrono::seconds lifetime)
    : key_(crypto::hmacSha256(secret, "feedback media urls v1")),
      scheme_(std::move(scheme)),
      lifetime_(lifetime) {}

std::string MediaUrls::signature(std::string_view blob_uuid, std::string_view workspace_uuid,
                                 int64_t expires) const {
  std::string message(workspace_uuid);
  message += '/';
  message += blob_uuid;
  message += '/';
  message += std::to_string(expires);
  return crypto::base64UrlEncode(crypto::hmacSha256(key_, message));
}

std::string MediaUrls::url(std::string_view blob_uuid, std::string_view host,
                           std::string_view workspace_uuid, int64_t now_seconds) const {
  const int64_t expires = now_seconds + lifetime_.count();
  std::string out = scheme_;
  out += "://";
  out += host;
  out += "/media/";
  out += blob_uuid;
  out += "?expires=";
  out += std::to_string(expires);
  out += "&signature=";
  out += signature(blob_uuid, workspace_uuid, expires);
  return out;
}

std::string MediaUrls::resolve(std::string json, std::string_view host,
                               std::string_view workspace_uuid, int64_t now_seconds) const {
  if (json.find(kMediaMarkerPrefix) == std::string::npos) return json;
  std::string out;
  out.reserve(json.size() + 256);
  std::size_t copied = 0;
  std::size_t at = 0;
  while ((at = json.find(kMediaMarkerPrefix, at)) != std::string::npos) {
    const std::size_t uuid_at = at + kMediaMarkerPrefix.size();
    bool address = false;
    for (auto key : kAddressKeys) {
      if (at >= key.size() && std::string_view(json).substr(at - key.size(), key.size()) == key) {
        address = true;
      }
    }
    const std::string_view uuid = std::string_view(json).substr(uuid_at, kUuidLength);
    if (!address || !isUuid(uuid) || uuid_at + kUuidLength >= json.size() ||
        json[uuid_at + kUuidLength] != '"') {
      at = uuid_at;
      continue;
    }
    out.append(json, copied, at - copied);
    out += url(uuid, host, workspace_uuid, now_seconds);
    copied = at = uuid_at + kUuidLength;
  }
  out.append(json, copied, std::string::npos);
  return out;
}

std::string MediaUrls::refresh(std::string json, std::string_view workspace_uuid,
                               int64_t now_seconds) const {
  constexpr std::string_view kPath = "/media/", kExpires = "?expires=", kSignature = "&signature=";
  const std::string_view text(json);
  std::string out;
  std::size_t copied = 0;
  for (std::size_t at = text.find(kPath); at != std::string_view::npos;
       at = text.find(kPath, at + 1)) {
    // The address's value starts at the quote before it, right after one of the keys.
    const std::size_t open = text.rfind('"', at);
    if (open == std::string_view::npos || text.substr(open, at - open).find('\\') != text.npos) {
      continue;
    }
    bool address = false;
    for (auto key : kAddressKeys) address = address || text.substr(0, open + 1).ends_with(key);
    const std::size_t uuid_at = at + kPath.size();
    const std::string_view uuid = text.substr(uuid_at, kUuidLength);
    const std::size_t query_at = uuid_at + kUuidLength;
    if (!address || !isUuid(uuid) || !text.substr(query_at).starts_with(kExpires)) continue;
    const std::size_t expires_at = query_at + kExpires.size();
    const std::size_t expires_end = text.find_first_not_of("0123456789", expires_at);
    if (expires_end == std::string_view::npos ||
        !text.substr(expires_end).starts_with(kSignature)) {
      continue;
    }
    const std::size_t signature_at = expires_end + kSignature.size();
    const std::size_t close = text.find('"', signature_at);
    int64_t expires = 0;
    const auto parsed =
        std::from_chars(text.data() + expires_at, text.data() + expires_end, expires);
    if (close == std::string_view::npos || parsed.ec != std::errc() ||
        !crypto::constantTimeEquals(signature(uuid, workspace_uuid, expires),
                                    text.substr(signature_at, close - signature_at))) {
      continue;
    }
    const int64_t renewed = now_seconds + lifetime_.count();
    out.append(text.substr(copied, query_at - copied));
    out += kExpires;
    out += std::to_string(renewed);
    out += kSignature;
    out += signature(uuid, workspace_uuid, renewed);
    copied = close;
  }
  if (copied == 0) return json;
  out.append(text.substr(copied));
  return out;
}

bool MediaUrls::verify(std::string_view blob_uuid, std::string_view workspace_uuid,
                       std::string_view expires, std::string_view given_signature,
                       int64_t now_seconds) const {
  int64_t at = 0;
  auto [end, ec] = std::from_chars(expires.data(), expires.data() + expires.size(), at);
  if (ec != std::errc() || end != expires.data() + expires.size() || expires.empty()) return false;
  // Signed by this deployment for at most its lifetime: a signature is checked either way,
  // so that how a refusal is timed says nothing.
  const bool fresh = at >= now_seconds && at <= now_seconds + lifetime_.count() + 60;
  const bool signed_here =
      crypto::constantTimeEquals(signature(blob_uuid, workspace_uuid, at), given_signature);
  return fresh && signed_here;
}

}  // namespace feedback::api
