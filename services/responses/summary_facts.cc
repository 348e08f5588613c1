#include "services/responses/summary_facts.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace feedback::responses {
namespace {

namespace rv1 = feedback::responses::v1;

char sentimentCode(std::string_view label) {
  if (label == "positive") return 'p';
  if (label == "negative") return 'n';
  return 'u';
}

void appendText(std::string& out, const rv1::Answer& a) {
  boost::system::error_code ec;
  auto insights = boost::json::parse(a.ai_insights_json(), ec);
  const auto* o = !ec && insights.is_object() ? &insights.get_object() : nullptr;
  const auto* sentiment = o ? o->if_contains("sentiment") : nullptr;
  if (!sentiment || !sentiment->is_string()) {
    out += "\t0\t[]";  // not evaluated (yet): counted as answered only
    return;
  }
  out += sentimentCode(sentiment->get_string());
  const auto* actionable = o->if_contains("actionable");
  out += actionable && actionable->is_bool() && actionable->get_bool() ? "\t1\t" : "\t0\t";
  const auto* topics = o->if_contains("key_topics");
  out += topics && topics->is_array() ? boost::json::serialize(*topics) : "[]";
}

}  // namespace

std::string summaryFacts(const std::vector<rv1::Answer>& answers) {
  std::string out;
  for (const auto& a : answers) {
    if (a.value_json().empty() && !a.has_transcription()) continue;
    const auto& type = a.response_type();
    out += a.question_uuid();
    out += '\t';
    if (type == "rating" && a.has_rating_details()) {
      out += "r\t" + std::to_string(a.rating_details().value());
    } else if (type == "number") {
      out += "n\t" + a.value_json();
    } else if ((type == "multiple_choice" || type == "image_choice") && !a.value_json().empty()) {
      out += "c\t";
      out += a.value_json().front() == '[' ? a.value_json() : "[" + a.value_json() + "]";
    } else if (type == "yes_no") {
      out += a.value_json() == "true" ? "y\t1" : "y\t0";
    } else if (type == "text" || type == "voice" || type == "voice_text_fallback") {
      out += "t\t";
      appendText(out, a);
    } else {
      out += "a\t";
    }
    out += '\n';
  }
  return out;
}

}  // namespace feedback::responses
