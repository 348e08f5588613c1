#include "services/responses/summary_facts.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "common/questions/question_types.h"

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

// A matrix answer {"row": "column" or ["column", ...]} as a flat list of strings, row then
// column for every chosen cell: ["speed","good","price","ok"].
void appendCells(std::string& out, const std::string& value_json) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(value_json, ec);
  boost::json::array cells;
  if (!ec && value.is_object()) {
    for (const auto& [row, chosen] : value.get_object()) {
      for (const auto& column :
           chosen.is_array() ? chosen.get_array() : boost::json::array{chosen}) {
        if (!column.is_string()) continue;
        cells.emplace_back(row);
        cells.push_back(column);
      }
    }
  }
  out += boost::json::serialize(cells);
}

}  // namespace

std::string_view questionRef(std::string_view question_uuid) {
  return question_uuid.size() == 36 ? question_uuid.substr(36 - kQuestionRefLength) : question_uuid;
}

FactsLayout::FactsLayout(const std::vector<std::string>& question_uuids) {
  for (std::size_t i = 0; i < question_uuids.size(); ++i) {
    if (i > 0) uuids_ += ',';
    uuids_ += question_uuids[i];
    positions_.emplace(question_uuids[i], i);
  }
  // A link has a handful of layouts, told apart within the link.
  const uint64_t hash = fnv1a64(uuids_);
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = 60; shift >= 0; shift -= 4) id_ += kHex[(hash >> shift) & 0xf];
}

std::optional<std::size_t> FactsLayout::position(std::string_view question_uuid) const {
  auto it = positions_.find(question_uuid);
  if (it == positions_.end()) return std::nullopt;
  return it->second;
}

std::string summaryFacts(const std::vector<rv1::Answer>& answers, const FactsLayout* layout) {
  std::string out;
  out.reserve(answers.size() * (layout ? 12 : 24) + 18);
  // The position of the previous line's question, kNoPosition after a line that named its
  // question by ref: the next line then names its position.
  constexpr std::size_t kNoPosition = static_cast<std::size_t>(-2);
  std::size_t previous = static_cast<std::size_t>(-1);
  if (layout) out += '@' + layout->id() + '\n';
  for (const auto& a : answers) {
    if (a.value_json().empty() && !a.has_transcription()) continue;
    const auto position = layout ? layout->position(a.question_uuid()) : std::nullopt;
    if (!position) {
      out += questionRef(a.question_uuid());
      previous = kNoPosition;
    } else {
      if (previous == kNoPosition || *position != previous + 1) out += std::to_string(*position);
      previous = *position;
    }
    out += '\t';
    using questions::SummaryKind;
    const SummaryKind kind = questions::summaryKindOf(a.response_type());
    if (kind == SummaryKind::kRating) {
      out += "r\t" + a.value_json();
    } else if (kind == SummaryKind::kNumber) {
      out += "n\t" + a.value_json();
    } else if (kind == SummaryKind::kChoice && !a.value_json().empty()) {
      out += "c\t";
      out += a.value_json().front() == '[' ? a.value_json() : "[" + a.value_json() + "]";
    } else if (kind == SummaryKind::kYesNo) {
      out += a.value_json() == "true" ? "y\t1" : "y\t0";
    } else if (kind == SummaryKind::kText) {
      out += "t\t";
      appendText(out, a);
    } else if (kind == SummaryKind::kSlider || kind == SummaryKind::kRanking) {
      // The answer's JSON, as stored: compact, so free of tabs and line breaks.
      out += static_cast<char>(kind);
      out += '\t';
      out += a.value_json();
    } else if (kind == SummaryKind::kValues) {
      out += "v\t[" + a.value_json() + "]";
    } else if (kind == SummaryKind::kMatrix) {
      out += "m\t";
      appendCells(out, a.value_json());
    } else if (kind == SummaryKind::kConsent) {
      out += "x\t";
    } else {
      out += "a\t";
    }
    out += '\n';
  }
  return out;
}

}  // namespace feedback::responses
