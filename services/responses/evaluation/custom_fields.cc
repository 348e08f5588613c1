#include "services/responses/evaluation/custom_fields.h"

#include <algorithm>
#include <set>

#include "services/responses/evaluation/text_units.h"

namespace feedback::responses::evaluation {
namespace {

std::set<std::string> stems(std::string_view text, bool drop_stop_words) {
  std::set<std::string> out;
  for (const auto& w : words(text)) {
    if (drop_stop_words && isStopWord(w.text)) continue;
    out.insert(stem(w.text));
  }
  return out;
}

}  // namespace

std::string readableFieldName(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', ' ');
  std::replace(out.begin(), out.end(), '-', ' ');
  return out;
}

CustomFieldValues customFields(std::string_view text, const std::vector<std::string>& names) {
  const auto found = sentences(text);
  std::vector<std::set<std::string>> sentence_stems;
  for (const auto& s : found) sentence_stems.push_back(stems(s.text, false));
  CustomFieldValues out;
  for (const auto& name : names) {
    const auto wanted = stems(readableFieldName(name), true);
    std::optional<std::string> value;
    for (std::size_t i = 0; i < found.size() && !wanted.empty() && !value; ++i) {
      if (std::includes(sentence_stems[i].begin(), sentence_stems[i].end(), wanted.begin(),
                        wanted.end())) {
        value = std::string(found[i].text);
      }
    }
    out.emplace_back(name, std::move(value));
  }
  return out;
}

}  // namespace feedback::responses::evaluation
