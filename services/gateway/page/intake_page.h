#pragma once
// The intake page (docs/api.md "Public intake"): HTML rendered once per link version with the
// link's name, description and form inside, so that it shows before any script runs and needs
// no second request; and its scripts and styles, compiled into the binary
// (services/gateway/page/assets/) and addressed by content, so browsers keep them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "feedback/links/v1/links.pb.h"

namespace feedback::gateway {

struct PageAsset {
  std::string_view path;  // e.g. "/static/intake.js"
  std::string_view content_type;
  std::string_view content;
  std::string etag;  // of the content
};

// The asset served at `path`; nullopt when there is none.
const PageAsset* findPageAsset(std::string_view path);
// Every asset, for routing.
const std::vector<PageAsset>& pageAssets();
// `path` with its content's version (?v=), which browsers may keep for good.
std::string versioned(std::string_view path);
// Text as HTML text or an attribute's value.
std::string escapeHtml(std::string_view text);

// The page of `link`, whose form (GET /i/{slug}/form/) is `form_json`.
std::string renderIntakePage(const feedback::links::v1::Link& link, std::string_view form_json);

// The Content-Security-Policy of the page: its own scripts and styles only.
inline constexpr std::string_view kIntakePagePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
    "media-src 'self' https: blob:; connect-src 'self'; form-action 'none'; "
    "frame-ancestors 'none'; base-uri 'none'";

}  // namespace feedback::gateway
