#include "services/gateway/page/intake_page.h"

#include <vector>

#include "common/core/crypto.h"

namespace feedback::gateway::page {
extern const std::string_view kIntakeHtml;
extern const std::string_view kIntakeCss;
extern const std::string_view kIntakeJs;
extern const std::string_view kFormRulesJs;
extern const std::string_view kPageJs;
extern const std::string_view kControlsJs;
extern const std::string_view kStructuredControlsJs;
extern const std::string_view kSignatureJs;
extern const std::string_view kPartsJs;
extern const std::string_view kVoiceJs;
extern const std::string_view kRecorderWorkletJs;
extern const std::string_view kReportCss;
}  // namespace feedback::gateway::page

namespace feedback::gateway {

std::string escapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

// JSON inside <script type="application/json">: no '<' may end the element early; "\u003c"
// reads back as the same text.
std::string scriptSafeJson(std::string_view json) {
  std::string out;
  out.reserve(json.size() + 32);
  for (char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<PageAsset> makeAssets() {
  auto asset = [](std::string_view path, std::string_view type, std::string_view content) {
    return PageAsset{path, type, content, crypto::sha256Hex(content).substr(0, 16)};
  };
  return {asset("/static/intake.css", "text/css; charset=utf-8", page::kIntakeCss),
          asset("/static/intake.js", "text/javascript; charset=utf-8", page::kIntakeJs),
          asset("/static/page.js", "text/javascript; charset=utf-8", page::kPageJs),
          asset("/static/controls.js", "text/javascript; charset=utf-8", page::kControlsJs),
          asset("/static/structured-controls.js", "text/javascript; charset=utf-8",
                page::kStructuredControlsJs),
          asset("/static/signature.js", "text/javascript; charset=utf-8", page::kSignatureJs),
          asset("/static/parts.js", "text/javascript; charset=utf-8", page::kPartsJs),
          asset("/static/voice.js", "text/javascript; charset=utf-8", page::kVoiceJs),
          asset("/static/form-rules.js", "text/javascript; charset=utf-8", page::kFormRulesJs),
          asset("/static/recorder-worklet.js", "text/javascript; charset=utf-8",
                page::kRecorderWorkletJs),
          asset("/static/report.css", "text/css; charset=utf-8", page::kReportCss)};
}

void replace(std::string& text, std::string_view name, std::string_view value) {
  std::size_t at = 0;
  while ((at = text.find(name, at)) != std::string::npos) {
    text.replace(at, name.size(), value);
    at += value.size();
  }
}

}  // namespace

const std::vector<PageAsset>& pageAssets() {
  static const std::vector<PageAsset> assets = makeAssets();
  return assets;
}

std::string versioned(std::string_view path) {
  const PageAsset* asset = findPageAsset(path);
  return std::string(path) + "?v=" + asset->etag;
}

const PageAsset* findPageAsset(std::string_view path) {
  for (const auto& asset : pageAssets()) {
    if (asset.path == path) return &asset;
  }
  return nullptr;
}

std::string renderIntakePage(const feedback::links::v1::Link& link, std::string_view form_json) {
  std::string html(page::kIntakeHtml);
  const auto& settings = link.settings();
  const std::string description =
      settings.has_description() && !settings.description().empty()
          ? "<p class=\"description\">" + escapeHtml(settings.description()) + "</p>"
          : "";
  const std::string state =
      link.status() == "active"
          ? "<p class=\"notice\" id=\"status\" role=\"status\">Loading the questions…</p>"
          : "<p class=\"notice\" id=\"status\" role=\"status\">This form is paused and is not "
            "taking answers right now. Please come back later.</p>";
  // Values of our own first: none of them can contain "{{".
  replace(html, "{{css}}", versioned("/static/intake.css"));
  replace(html, "{{js}}", versioned("/static/intake.js"));
  replace(html, "{{worklet}}", versioned("/static/recorder-worklet.js"));
  replace(html, "{{slug}}", escapeHtml(link.slug()));
  replace(html, "{{state}}", state);
  const std::string title = escapeHtml(link.name());
  const std::string form = scriptSafeJson(form_json);
  // The link owner's text last, in one pass, so that a "{{title}}" typed into a name stays
  // as typed.
  std::string out;
  out.reserve(html.size() + 2 * title.size() + description.size() + form.size());
  std::size_t at = 0;
  while (at < html.size()) {
    auto next = html.find("{{", at);
    if (next == std::string::npos) {
      out.append(html, at, std::string::npos);
      break;
    }
    out.append(html, at, next - at);
    auto end = html.find("}}", next);
    const std::string_view name = std::string_view(html).substr(next, end + 2 - next);
    if (name == "{{title}}") {
      out += title;
    } else if (name == "{{description}}") {
      out += description;
    } else if (name == "{{form}}") {
      out += form;
    } else {
      out += name;
    }
    at = end + 2;
  }
  return out;
}

}  // namespace feedback::gateway
