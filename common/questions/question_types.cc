#include "common/questions/question_types.h"

#include <bit>
#include <boost/json/parse.hpp>
#include <cmath>
#include <cstdint>
#include <map>

#include "common/core/json_text.h"
#include "common/core/text_map.h"

namespace feedback::questions {

namespace {

// The types by name in an open-addressed table of a power of two slots, four times as many
// as types: findQuestionType runs for several facts of every answer of every submission
// (3.4% of the responses service's CPU under "W4, 32 types" through std::unordered_map,
// whose string hash and prime modulo cost more than these names' FNV-1a and a mask).
class TypeIndex {
 public:
  TypeIndex() {
    for (const auto& type : questionTypes()) {
      std::size_t slot = hash(type.name) & kMask;
      while (slots_[slot]) slot = (slot + 1) & kMask;
      slots_[slot] = &type;
    }
  }
  const QuestionType* find(std::string_view name) const {
    for (std::size_t slot = hash(name) & kMask;; slot = (slot + 1) & kMask) {
      const QuestionType* type = slots_[slot];
      if (!type || type->name == name) return type;
    }
  }

 private:
  static constexpr std::size_t kSlots = 4 * std::bit_ceil(kQuestionTypeCount);
  static constexpr std::size_t kMask = kSlots - 1;
  static std::size_t hash(std::string_view name) {
    const std::uint64_t h = fnv1a64(name);
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
  std::array<const QuestionType*, kSlots> slots_{};
};

}  // namespace

const QuestionType* findQuestionType(std::string_view name) {
  static const TypeIndex index;
  return index.find(name);
}

namespace {

// A fact of the type named `name`; `fallback` for a name outside the table.
template <class Fact>
Fact factOf(std::string_view name, Fact QuestionType::*fact, Fact fallback) {
  const QuestionType* type = findQuestionType(name);
  return type ? type->*fact : fallback;
}

}  // namespace

SummaryKind summaryKindOf(std::string_view name) {
  return factOf(name, &QuestionType::summary, SummaryKind::kNone);
}

AnswerMedia mediaOf(std::string_view name) {
  return factOf(name, &QuestionType::media, AnswerMedia::kNone);
}

AnswerExtra extraOf(std::string_view name) {
  return factOf(name, &QuestionType::extra, AnswerExtra::kNone);
}

TextForm textFormOf(std::string_view name) {
  return factOf(name, &QuestionType::text, TextForm::kNone);
}

void forEachText(std::string_view response_type, const boost::json::value& value,
                 const std::function<void(std::string_view)>& each) {
  switch (textFormOf(response_type)) {
    case TextForm::kStrings:
      if (value.is_string()) each(value.as_string());
      if (value.is_array()) {
        for (const auto& item : value.as_array()) {
          if (item.is_string()) each(item.as_string());
        }
      }
      return;
    case TextForm::kParts:
      if (!value.is_object()) return;
      for (const auto& part : value.as_object()) {
        if (part.value().is_string()) each(part.value().as_string());
      }
      return;
    case TextForm::kUnset:
    case TextForm::kNone:
      return;
  }
}

void forEachTextOfJson(std::string_view response_type, std::string_view value_json,
                       const std::function<void(std::string_view)>& each) {
  const TextForm form = textFormOf(response_type);
  if (value_json.empty() || form == TextForm::kNone || form == TextForm::kUnset) return;
  if (form == TextForm::kStrings) {
    if (auto text = unescapedJsonString(value_json)) {
      each(*text);
      return;
    }
  }
  forEachText(response_type, boost::json::parse(value_json), each);
}

std::optional<double> numericValue(const boost::json::value& value) {
  if (value.is_int64()) return static_cast<double>(value.as_int64());
  if (value.is_uint64()) return static_cast<double>(value.as_uint64());
  if (value.is_double() && std::isfinite(value.as_double())) return value.as_double();
  return std::nullopt;
}

std::optional<double> settingNumber(const Question& question, std::string_view key) {
  const boost::json::value* v = setting(question, key);
  return v ? numericValue(*v) : std::nullopt;
}

bool settingFlag(const Question& question, std::string_view key) {
  const boost::json::value* v = setting(question, key);
  return v && v->is_bool() && v->as_bool();
}

const boost::json::value* setting(const Question& question, std::string_view key) {
  if (const auto* configured = question.configuration.if_contains(key)) return configured;
  // The table's defaults, parsed once: "<type>.<key>" -> value.
  static const std::map<std::string, boost::json::value, std::less<>> defaults = [] {
    std::map<std::string, boost::json::value, std::less<>> out;
    for (const auto& type : questionTypes()) {
      for (const auto& k : type.configuration) {
        if (k.default_json.empty()) continue;
        out.emplace(std::string(type.name) + "." + std::string(k.name),
                    boost::json::parse(k.default_json));
      }
    }
    return out;
  }();
  auto it = defaults.find(question.response_type + "." + std::string(key));
  return it == defaults.end() ? nullptr : &it->second;
}

}  // namespace feedback::questions
