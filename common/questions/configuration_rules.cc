#include "common/questions/configuration_rules.h"

#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>
#include <cmath>
#include <set>

#include "common/core/errors.h"
#include "common/core/json_text.h"
#include "common/questions/answer_rules.h"
#include "common/questions/evaluation_rules.h"
#include "common/questions/formula.h"

namespace feedback::questions {
namespace {

constexpr std::size_t kMaxUrlLength = 2048;
constexpr std::size_t kMaxOptionLength = 200;
constexpr std::array<std::string_view, 3> kOperators = {"less_than", "equals", "contains"};

std::optional<double> numberOf(const boost::json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.as_int64());
  if (v.is_uint64()) return static_cast<double>(v.as_uint64());
  if (v.is_double() && std::isfinite(v.as_double())) return v.as_double();
  return std::nullopt;
}

template <std::size_t N>
bool oneOf(const std::array<std::string_view, N>& allowed, std::string_view value) {
  for (auto a : allowed) {
    if (a == value) return true;
  }
  return false;
}

std::string join(std::string_view sep, std::initializer_list<std::string_view> items) {
  std::string out;
  for (auto i : items) {
    if (!out.empty()) out += sep;
    out += i;
  }
  return out;
}

class ConfigurationChecker {
 public:
  ConfigurationChecker(const std::string& path, const std::set<std::string>& field_keys,
                       const std::string& own_key)
      : path_(path), field_keys_(field_keys), own_key_(own_key) {}

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    std::string where = path_ + "." + key;
    throw ApiError(ErrorCode::kInvalidConfiguration, "'" + where + "' " + problem + ".",
                   {{where, problem}});
  }

  void check(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    switch (key.value) {
      case ConfigValue::kInteger: {
        auto n = numberOf(v);
        if (!n || std::floor(*n) != *n || *n < key.min || *n > key.max) {
          fail(name, "must be a whole number from " + std::to_string(static_cast<int>(key.min)) +
                         " to " + std::to_string(static_cast<int>(key.max)));
        }
        return;
      }
      case ConfigValue::kNumber:
        if (!numberOf(v)) fail(name, "must be a number");
        return;
      case ConfigValue::kPositiveNumber: {
        auto n = numberOf(v);
        if (!n || *n <= 0 || (key.max > 0 && *n > key.max)) {
          fail(name, key.max > 0 ? "must be a number above 0 and at most " +
                                       std::to_string(static_cast<int>(key.max))
                                 : std::string("must be a number above 0"));
        }
        return;
      }
      case ConfigValue::kBoolean:
        if (!v.is_bool()) fail(name, "must be true or false");
        return;
      case ConfigValue::kText:
        if (!v.is_string() || v.as_string().size() > key.max) {
          fail(name, "must be a string of at most " + std::to_string(static_cast<int>(key.max)) +
                         " characters");
        }
        return;
      case ConfigValue::kUrl:
        if (!v.is_string() || !isHttpUrl(v.as_string(), false)) {
          fail(name, "must be an absolute http(s) URL");
        }
        return;
      case ConfigValue::kScaleType:
        if (!v.is_string() || !oneOf(kRatingScaleTypes, v.as_string())) {
          fail(name, "must be one of " + join(", ", {"stars", "emojis", "nps", "numbers"}));
        }
        return;
      case ConfigValue::kOptions:
        return checkOptions(key, v);
      case ConfigValue::kCards:
        return checkCards(key, v);
      case ConfigValue::kMimeTypes:
        return checkMimeTypes(key, v);
      case ConfigValue::kFormula:
        return checkFormula(key, v);
    }
  }

 private:
  void checkOptions(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_array() || v.as_array().empty() || v.as_array().size() > key.max) {
      fail(name, "must be a list of 1 to 100 options");
    }
    std::set<std::string_view> seen;
    const auto& items = v.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::string where = name + "[" + std::to_string(i) + "]";
      if (!items[i].is_string() || items[i].as_string().empty() ||
          items[i].as_string().size() > kMaxOptionLength) {
        fail(where, "must be a non-empty string of at most 200 characters");
      }
      if (!seen.insert(items[i].as_string()).second) fail(where, "repeats an earlier option");
    }
  }

  void checkCards(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_array() || v.as_array().empty() || v.as_array().size() > key.max) {
      fail(name, "must be a list of 1 to 50 cards");
    }
    std::set<std::string_view> ids;
    const auto& cards = v.as_array();
    for (std::size_t i = 0; i < cards.size(); ++i) {
      std::string where = name + "[" + std::to_string(i) + "]";
      if (!cards[i].is_object()) fail(where, "must be an object");
      const auto& card = cards[i].as_object();
      for (const auto& entry : card) {
        if (entry.key() != "id" && entry.key() != "label" && entry.key() != "media_url" &&
            entry.key() != "media_type") {
          fail(where + "." + std::string(entry.key()), "is not a card field");
        }
      }
      const auto* id = card.if_contains("id");
      if (!id || !id->is_string() || id->as_string().empty()) {
        fail(where + ".id", "must be a non-empty string");
      }
      if (!ids.insert(id->as_string()).second) fail(where + ".id", "repeats an earlier card id");
      const auto* label = card.if_contains("label");
      if (!label || !label->is_string() || label->as_string().size() > kMaxOptionLength) {
        fail(where + ".label", "must be a string of at most 200 characters");
      }
      const auto* url = card.if_contains("media_url");
      if (!url || !url->is_string() || !isHttpUrl(url->as_string(), false)) {
        fail(where + ".media_url", "must be an absolute http(s) URL");
      }
      const auto* type = card.if_contains("media_type");
      if (!type || !type->is_string() || !oneOf(kCardMediaTypes, type->as_string())) {
        fail(where + ".media_type", "must be image or video");
      }
    }
  }

  void checkMimeTypes(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_array() || v.as_array().size() > key.max) {
      fail(name, "must be a list of at most 50 media types");
    }
    const auto& items = v.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::string where = name + "[" + std::to_string(i) + "]";
      bool valid = items[i].is_string();
      if (valid) {
        std::string_view t = items[i].as_string();
        auto slash = t.find('/');
        valid = t.size() <= 100 && slash != std::string_view::npos && slash > 0 &&
                slash + 1 < t.size() && t.find('/', slash + 1) == std::string_view::npos &&
                t.find(' ') == std::string_view::npos;
      }
      if (!valid) fail(where, "must be a media type such as image/png or image/*");
    }
  }

  void checkFormula(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_string() || v.as_string().empty()) fail(name, "must be a non-empty string");
    std::string error;
    auto formula = Formula::parse(v.as_string(), &error);
    if (!formula) fail(name, "is not a formula: " + error);
    for (const auto& field : formula->fields()) {
      if (field == own_key_) fail(name, "must not read its own field '" + field + "'");
      if (!field_keys_.count(field)) fail(name, "reads unknown field '" + field + "'");
    }
  }

  const std::string& path_;
  const std::set<std::string>& field_keys_;
  const std::string& own_key_;
};

}  // namespace

bool isHttpUrl(std::string_view text, bool https_only) {
  if (text.size() > kMaxUrlLength) return false;
  auto url = boost::urls::parse_absolute_uri(text);
  if (!url) return false;
  auto scheme = url->scheme();
  bool scheme_ok = scheme == "https" || (!https_only && scheme == "http");
  return scheme_ok && url->has_authority() && !url->encoded_host().empty();
}

boost::json::object parseObject(std::string_view json, const std::string& path, ErrorCode code) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(json, ec);
  if (ec || !v.is_object() || holdsNonFinite(v)) {
    throw ApiError(code, "'" + path + "' must be a JSON object.", {{path, "must be an object"}});
  }
  return std::move(v.as_object());
}

void validateConfiguration(const QuestionType& type, const boost::json::object& configuration,
                           const std::string& path, const std::set<std::string>& field_keys,
                           const std::string& own_key) {
  ConfigurationChecker checker(path, field_keys, own_key);
  for (const auto& entry : configuration) {
    const ConfigKey* spec = nullptr;
    for (const auto& k : type.configuration) {
      if (k.name == entry.key()) spec = &k;
    }
    if (!spec) {
      checker.fail(std::string(entry.key()),
                   "is not a configuration key of type " + std::string(type.name));
    }
    checker.check(*spec, entry.value());
  }
  for (const auto& k : type.configuration) {
    if (k.required && !configuration.contains(k.name))
      checker.fail(std::string(k.name), "is required");
  }
  if (type.check_keys) {
    type.check_keys(
        configuration,
        [](void* context, std::string_view key, const std::string& problem) {
          static_cast<const ConfigurationChecker*>(context)->fail(std::string(key), problem);
        },
        &checker);
  }
}

void checkNumberRange(const boost::json::object& configuration, ConfigProblem report,
                      void* context) {
  // An empty range cannot be answered.
  const auto* min = configuration.if_contains("min");
  const auto* max = configuration.if_contains("max");
  if (min && max && *numberOf(*min) > *numberOf(*max))
    report(context, "min", "must not exceed max");
}

void validateCondition(const boost::json::object& condition, const std::string& path,
                       const std::set<std::string>& earlier_field_keys) {
  auto fail = [&path](const std::string& key, const std::string& problem) {
    std::string where = key.empty() ? path : path + "." + key;
    throw ApiError(ErrorCode::kInvalidCondition, "'" + where + "' " + problem + ".",
                   {{where, problem}});
  };
  if (condition.empty()) return;
  for (const auto& entry : condition) {
    auto k = entry.key();
    if (k != "show_if" && k != "field" && k != "operator" && k != "value") {
      fail(std::string(k), "is not a condition key");
    }
  }
  if (const auto* show_if = condition.if_contains("show_if");
      show_if && !(show_if->is_string() && show_if->as_string() == "field_value")) {
    fail("show_if", "must be \"field_value\"");
  }
  const auto* field = condition.if_contains("field");
  if (!field || !field->is_string()) fail("field", "must be the field_key of an earlier question");
  if (!earlier_field_keys.count(std::string(field->as_string()))) {
    fail("field", "must be the field_key of an earlier question, not '" +
                      std::string(field->as_string()) + "'");
  }
  const auto* op = condition.if_contains("operator");
  if (!op || !op->is_string() || !oneOf(kOperators, op->as_string())) {
    fail("operator", "must be one of less_than, equals, contains");
  }
  const auto* value = condition.if_contains("value");
  if (!value || !(value->is_string() || numberOf(*value))) {
    fail("value", "must be a number or a string");
  }
  if (op->as_string() == "less_than" && !numberOf(*value)) {
    fail("value", "must be a number for less_than");
  }
  if (op->as_string() == "contains" && !value->is_string()) {
    fail("value", "must be a string for contains");
  }
}

void validateEvaluatorConfig(const boost::json::object& config, const std::string& path) {
  auto fail = [&path](std::string_view key, const std::string& problem) {
    std::string where = path + "." + std::string(key);
    throw ApiError(ErrorCode::kValidationError, "'" + where + "' " + problem + ".",
                   {{where, problem}});
  };
  for (const auto& entry : config) {
    auto key = entry.key();
    const auto& v = entry.value();
    if (key == "clarity_threshold") {
      auto n = numberOf(v);
      if (!n || *n < 0 || *n > 1) fail(key, "must be a number from 0 to 1");
    } else if (key == "max_follow_ups") {
      auto n = numberOf(v);
      if (!n || std::floor(*n) != *n || *n < 0 || *n > kMaxFollowUps) {
        fail(key, "must be a whole number from 0 to " + std::to_string(kMaxFollowUps));
      }
    } else if (key == "custom_fields") {
      if (!v.is_array() || v.as_array().size() > kMaxCustomFields) {
        fail(key, "must be a list of at most " + std::to_string(kMaxCustomFields) + " strings");
      }
      std::set<std::string_view> seen;
      for (const auto& item : v.as_array()) {
        if (!item.is_string() || item.as_string().empty() ||
            characterCount(item.as_string()) > kMaxCustomFieldLength) {
          fail(key, "must hold non-empty strings of at most " +
                        std::to_string(kMaxCustomFieldLength) + " characters");
        }
        if (!seen.insert(item.as_string()).second) {
          fail(key, "must not name a field twice ('" + std::string(item.as_string()) + "')");
        }
      }
    } else {
      fail(key, "is not an evaluator_config key");
    }
  }
}

}  // namespace feedback::questions
