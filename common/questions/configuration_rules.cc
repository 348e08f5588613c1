#include "common/questions/configuration_rules.h"

#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>
#include <cmath>
#include <set>

#include "common/core/errors.h"
#include "common/core/json_text.h"
#include "common/questions/answer_rules.h"
#include "common/questions/calendar.h"
#include "common/questions/evaluation_rules.h"
#include "common/questions/formula.h"
#include "common/questions/phone_numbers.h"

namespace feedback::questions {
namespace {

constexpr std::size_t kMaxUrlLength = 2048;
constexpr std::size_t kMaxOptionLength = 200;

template <std::size_t N>
bool oneOf(const std::array<std::string_view, N>& allowed, std::string_view value) {
  for (auto a : allowed) {
    if (a == value) return true;
  }
  return false;
}

// "1 to 100", or "5" when the bounds agree.
std::string countText(const ConfigKey& key) {
  const auto low = static_cast<int64_t>(key.min), high = static_cast<int64_t>(key.max);
  return low == high ? std::to_string(low) : std::to_string(low) + " to " + std::to_string(high);
}

bool isTextWithin(const boost::json::value& v, const ConfigKey& key) {
  if (!v.is_string()) return false;
  const std::size_t n = characterCount(v.as_string());
  return n >= key.min && n <= key.max;
}

// ^[a-z0-9_]{1,64}$: a matrix row's or column's id.
bool isItemId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
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
  ConfigurationChecker(const QuestionType& type, const std::string& path,
                       const std::set<std::string>& field_keys, const std::string& own_key)
      : type_(type), path_(path), field_keys_(field_keys), own_key_(own_key) {}

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    std::string where = path_ + "." + key;
    throw ApiError(ErrorCode::kInvalidConfiguration, "'" + where + "' " + problem + ".",
                   {{where, problem}});
  }

  void check(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    switch (key.value) {
      case ConfigValue::kInteger: {
        auto n = numericValue(v);
        if (!n || std::floor(*n) != *n || *n < key.min || *n > key.max) {
          fail(name, "must be a whole number from " + std::to_string(static_cast<int>(key.min)) +
                         " to " + std::to_string(static_cast<int>(key.max)));
        }
        return;
      }
      case ConfigValue::kNumber:
        if (!numericValue(v)) fail(name, "must be a number");
        return;
      case ConfigValue::kPositiveNumber: {
        auto n = numericValue(v);
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
        if (!isTextWithin(v, key))
          fail(name, "must be a string of " + countText(key) + " characters");
        return;
      case ConfigValue::kTextList:
        return checkTextList(key, v);
      case ConfigValue::kUrl:
        if (!v.is_string() || !isHttpUrl(v.as_string(), false)) {
          fail(name, "must be an absolute http(s) URL");
        }
        return;
      case ConfigValue::kHttpsUrl:
        if (!v.is_string() || !isHttpUrl(v.as_string(), true)) {
          fail(name, "must be an absolute https URL");
        }
        return;
      case ConfigValue::kCountry:
        if (!v.is_string() || !isCountryCode(v.as_string())) {
          fail(name, "must be an ISO 3166-1 alpha-2 country code such as US");
        }
        return;
      case ConfigValue::kTime:
        if (!v.is_string() || !isClockTime(v.as_string())) {
          fail(name, "must be a time written HH:MM (24 hours)");
        }
        return;
      case ConfigValue::kDate:
        if (!v.is_string() || !isCalendarDate(v.as_string())) {
          fail(name, "must be a date written YYYY-MM-DD");
        }
        return;
      case ConfigValue::kScaleLabels:
        return checkScaleLabels(key, v);
      case ConfigValue::kIdLabels:
        return checkIdLabels(key, v);
      case ConfigValue::kParts:
        return checkParts(key, v);
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
    if (!v.is_array() || v.as_array().size() < std::max(key.min, 1.0) ||
        v.as_array().size() > key.max) {
      fail(name, "must be a list of " + countText(key) + " options");
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

  void checkTextList(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_array() || v.as_array().size() < key.min || v.as_array().size() > key.max) {
      fail(name, "must be a list of " + countText(key) + " strings");
    }
    const auto& items = v.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!items[i].is_string() || characterCount(items[i].as_string()) > kMaxOptionLength) {
        fail(name + "[" + std::to_string(i) + "]", "must be a string of at most 200 characters");
      }
    }
  }

  void checkScaleLabels(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_object()) fail(name, "must be an object {left, center, right}");
    for (const auto& entry : v.as_object()) {
      const std::string where = name + "." + std::string(entry.key());
      if (entry.key() != "left" && entry.key() != "center" && entry.key() != "right") {
        fail(where, "is not a label: labels are left, center and right");
      }
      if (!entry.value().is_string() ||
          characterCount(entry.value().as_string()) > kMaxOptionLength) {
        fail(where, "must be a string of at most 200 characters");
      }
    }
  }

  void checkIdLabels(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_array() || v.as_array().size() < key.min || v.as_array().size() > key.max) {
      fail(name, "must be a list of " + countText(key) + " {id, label} objects");
    }
    std::set<std::string_view> ids;
    const auto& items = v.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string where = name + "[" + std::to_string(i) + "]";
      if (!items[i].is_object()) fail(where, "must be an object {id, label}");
      const auto& item = items[i].as_object();
      for (const auto& entry : item) {
        if (entry.key() != "id" && entry.key() != "label") {
          fail(where + "." + std::string(entry.key()), "is not a field: items are {id, label}");
        }
      }
      const auto* id = item.if_contains("id");
      if (!id || !id->is_string() || !isItemId(id->as_string())) {
        fail(where + ".id", "must match ^[a-z0-9_]{1,64}$");
      }
      if (!ids.insert(id->as_string()).second) fail(where + ".id", "repeats an earlier id");
      const auto* label = item.if_contains("label");
      if (!label || !label->is_string() || label->as_string().empty() ||
          characterCount(label->as_string()) > kMaxOptionLength) {
        fail(where + ".label", "must be a string of 1 to 200 characters");
      }
    }
  }

  void checkParts(const ConfigKey& key, const boost::json::value& v) const {
    const std::string name(key.name);
    if (!v.is_object()) fail(name, "must be an object from field name to {show, required}");
    for (const auto& entry : v.as_object()) {
      const std::string where = name + "." + std::string(entry.key());
      bool known = false;
      for (const auto& part : type_.parts) known |= part.name == entry.key();
      if (!known) fail(where, "is not a field of " + std::string(type_.name));
      if (!entry.value().is_object()) fail(where, "must be an object {show, required}");
      for (const auto& setting : entry.value().as_object()) {
        if (setting.key() != "show" && setting.key() != "required") {
          fail(where + "." + std::string(setting.key()),
               "is not a key: fields take show and required");
        }
        if (!setting.value().is_bool()) {
          fail(where + "." + std::string(setting.key()), "must be true or false");
        }
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

  const QuestionType& type_;
  const std::string& path_;
  const std::set<std::string>& field_keys_;
  const std::string& own_key_;
};

}  // namespace

bool isHttpUrl(std::string_view text, bool https_only) {
  if (text.size() > kMaxUrlLength) return false;
  // A URI, not an absolute-URI: a fragment (#top) is part of an address people give.
  auto url = boost::urls::parse_uri(text);
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
  ConfigurationChecker checker(type, path, field_keys, own_key);
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
    Question question;
    question.response_type = std::string(type.name);
    question.configuration = configuration;
    type.check_keys(
        question,
        [](void* context, std::string_view key, const std::string& problem) {
          static_cast<const ConfigurationChecker*>(context)->fail(std::string(key), problem);
        },
        &checker);
  }
}

void checkNumberRange(const Question& question, ConfigProblem report, void* context) {
  // An empty range cannot be answered.
  const auto* min = setting(question, "min");
  const auto* max = setting(question, "max");
  if (min && max && *numericValue(*min) > *numericValue(*max))
    report(context, "min", "must not exceed max");
}

void checkTimeRange(const Question& question, ConfigProblem report, void* context) {
  const auto* min = setting(question, "min");
  const auto* max = setting(question, "max");
  if (min && max && min->as_string() > max->as_string()) {
    report(context, "min", "must not be after max");
  }
}

void checkDateRange(const Question& question, ConfigProblem report, void* context) {
  const auto* min = setting(question, "min_date");
  const auto* max = setting(question, "max_date");
  if (min && max && min->as_string() > max->as_string()) {
    report(context, "min_date", "must not be after max_date");
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
      auto n = numericValue(v);
      if (!n || *n < 0 || *n > 1) fail(key, "must be a number from 0 to 1");
    } else if (key == "max_follow_ups") {
      auto n = numericValue(v);
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
