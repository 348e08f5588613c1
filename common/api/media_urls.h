#pragma once
// The addresses of respondents' files and recordings (docs/api.md "Media"): absolute,
// signed for one workspace, expiring after an hour. Answers are stored with a marker in place
// of each address ("media:<blob uuid>" as the value of "url" or "audio_url"), so that every
// read renders fresh addresses without parsing the answers.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace feedback::api {

inline constexpr std::string_view kMediaMarkerPrefix = "media:";

// "media:<blob uuid>": what a stored answer holds in place of the address.
std::string mediaMarker(std::string_view blob_uuid);

// The ETag (and If-Range, If-None-Match value) of media whose tag is `tag`: quoted.
inline std::string quotedTag(std::string_view tag) {
  std::string out = "\"";
  out += tag;
  out += '"';
  return out;
}

class MediaUrls {
 public:
  // `secret`: the deployment's SECRETS_KEY, from which the signing key is derived; `scheme`:
  // PUBLIC_SCHEME.
  MediaUrls(std::string_view secret, std::string scheme,
            std::chrono::seconds lifetime = std::chrono::hours(1));

  // "<scheme>://<host>/media/<blob uuid>?expires=<unix seconds>&signature=<base64url>".
  std::string url(std::string_view blob_uuid, std::string_view host,
                  std::string_view workspace_uuid, int64_t now_seconds) const;
  // `json` (answers as stored, or a document holding them) with every marker replaced by its
  // address; the text itself when there is none.
  std::string resolve(std::string json, std::string_view host, std::string_view workspace_uuid,
                      int64_t now_seconds) const;
  // `json` (an event's payload, rendered by resolve() some time ago) with each address this
  // deployment signed for the workspace signed afresh from `now_seconds`, so that a webhook
  // attempt made hours after its event still carries addresses that work. Others are left.
  std::string refresh(std::string json, std::string_view workspace_uuid, int64_t now_seconds) const;
  // Whether `expires` and `signature` (as the query string gave them) sign this blob for this
  // workspace and have not expired.
  bool verify(std::string_view blob_uuid, std::string_view workspace_uuid, std::string_view expires,
              std::string_view signature, int64_t now_seconds) const;

 private:
  std::string signature(std::string_view blob_uuid, std::string_view workspace_uuid,
                        int64_t expires) const;

  std::string key_;
  std::string scheme_;
  std::chrono::seconds lifetime_;
};

int64_t unixSeconds();

}  // namespace feedback::api
