#include "common/questions/recall.h"

#include "common/core/ascii.h"
#include "common/core/errors.h"
#include "common/questions/answer_rules.h"

namespace feedback::questions {
namespace {

constexpr std::string_view kOpen = "{{";
constexpr std::string_view kClose = "}}";

// Calls `each(field, start, end)` for every placeholder, [start, end) its whole text.
template <class Each>
void scan(std::string_view text, Each each) {
  std::size_t at = 0;
  while ((at = text.find(kOpen, at)) != std::string_view::npos) {
    const auto close = text.find(kClose, at + kOpen.size());
    if (close == std::string_view::npos) return;
    const auto inner = text.substr(at + kOpen.size(), close - at - kOpen.size());
    each(trim(inner, kAsciiWhitespace), at, close + kClose.size());
    at = close + kClose.size();
  }
}

}  // namespace

void validateRecall(std::string_view text, const std::string& path, const QuestionsByKey& allowed) {
  scan(text, [&](std::string_view field, std::size_t, std::size_t) {
    const Question* question = fieldQuestion(field, allowed);
    const bool whole = field.find('.') == std::string_view::npos;
    if (!question || (whole && answeredWithObject(*question))) {
      const std::string problem =
          "recalls '" + std::string(field) + "', which names no earlier question" +
          (question ? " (an object answer is recalled through a part: key.part)" : "");
      throw ApiError(ErrorCode::kValidationError, "'" + path + "' " + problem + ".",
                     {{path, problem}});
    }
  });
}

std::string recallText(const boost::json::value& value) {
  if (value.is_string()) return std::string(value.as_string());
  if (value.is_bool()) return value.as_bool() ? "yes" : "no";
  if (auto n = numericValue(value)) return numberText(*n);
  if (!value.is_array()) return {};
  std::string out;
  for (const auto& item : value.as_array()) {
    if (!out.empty()) out += ", ";
    out += recallText(item);
  }
  return out;
}

std::string withRecall(std::string_view text, const FieldAnswer& answer) {
  if (text.find(kOpen) == std::string_view::npos) return std::string(text);
  std::string out;
  std::size_t copied = 0;
  scan(text, [&](std::string_view field, std::size_t start, std::size_t end) {
    out.append(text.substr(copied, start - copied));
    if (const auto* value = answer(field)) out += recallText(*value);
    copied = end;
  });
  out.append(text.substr(copied));
  return out;
}

}  // namespace feedback::questions
