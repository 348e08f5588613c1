#include "common/questions/answer_rules.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/core/ascii.h"
#include "common/core/limits.h"
#include "common/questions/configuration_rules.h"
#include "common/questions/phone_numbers.h"

namespace feedback::questions {
namespace {

using Problem = std::optional<std::string>;

constexpr std::size_t kMaxFileNameLength = 255;

Problem tooLong(std::size_t limit) {
  return "must be at most " + std::to_string(limit) + " characters";
}

// A string of at most `limit` characters.
Problem textWithin(const boost::json::value& value, std::size_t limit) {
  if (!value.is_string()) return "must be a string";
  if (characterCount(value.as_string()) > limit) return tooLong(limit);
  return std::nullopt;
}

bool isOption(const boost::json::array& options, const boost::json::value& value) {
  if (!value.is_string()) return false;
  for (const auto& option : options) {
    if (option.is_string() && option.as_string() == value.as_string()) return true;
  }
  return false;
}

bool isDomainLabelChar(unsigned char c) {
  return std::isalnum(c) || c == '-' || c >= 0x80;
}

bool isLocalPartChar(unsigned char c) {
  static constexpr std::string_view kSpecials = "!#$%&'*+/=?^_`{|}~-.";
  return std::isalnum(c) || c >= 0x80 || kSpecials.find(static_cast<char>(c)) != kSpecials.npos;
}

bool isMediaType(std::string_view text) {
  auto slash = text.find('/');
  return slash != std::string_view::npos && slash > 0 && slash + 1 < text.size() &&
         text.find_first_of(" \t/", slash + 1) == std::string_view::npos;
}

}  // namespace

std::size_t characterCount(std::string_view utf8) {
  std::size_t count = 0;
  for (unsigned char c : utf8) count += (c & 0xC0) != 0x80;
  return count;
}

std::string numberText(double n) {
  // As JavaScript's String(n) writes it (the page recalls numbers so): whole numbers in full,
  // plain decimals from 1e-7 to 1e21, exponents beyond, without a leading zero or a '+' less.
  if (std::floor(n) == n && std::fabs(n) < 1e15) return std::to_string(static_cast<int64_t>(n));
  char out[64];
  const double size = std::fabs(n);
  const auto format =
      size >= 1e-7 && size < 1e21 ? std::chars_format::fixed : std::chars_format::scientific;
  const std::string text(out, std::to_chars(out, out + sizeof out, n, format).ptr);
  const auto e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 2);  // after "e+" or "e-"
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return text.substr(0, e + 2) + exponent;
}

bool onStep(double n, double from, double step) {
  // The distance to the nearest step, against a tolerance for binary rounding only (0.3 is
  // three steps of 0.1; 1500000000.5 is not a whole number of steps of 1).
  const double offset = n - from;
  const double from_step = std::fabs(offset - std::round(offset / step) * step);
  const double tolerance = 1e-9 * step + 8 * std::numeric_limits<double>::epsilon() *
                                             std::max(std::fabs(offset), std::fabs(n));
  return from_step <= tolerance;
}

bool isEmailAddress(std::string_view text) {
  if (text.empty() || text.size() > limits::kMaxEmailLength) return false;
  auto at = text.find('@');
  if (at == std::string_view::npos || text.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  std::string_view local = text.substr(0, at);
  std::string_view domain = text.substr(at + 1);
  if (local.empty() || local.size() > 64 || local.front() == '.' || local.back() == '.' ||
      local.find("..") != std::string_view::npos) {
    return false;
  }
  for (unsigned char c : local) {
    if (!isLocalPartChar(c)) return false;
  }
  // At least two labels; each 1-63 characters, not starting or ending with '-'.
  if (domain.size() > 253 || domain.find('.') == std::string_view::npos) return false;
  std::size_t start = 0;
  while (start <= domain.size()) {
    auto dot = domain.find('.', start);
    if (dot == std::string_view::npos) dot = domain.size();
    std::string_view label = domain.substr(start, dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (unsigned char c : label) {
      if (!isDomainLabelChar(c)) return false;
    }
    start = dot + 1;
  }
  return true;
}

bool isAllowedFileType(const Question& question, std::string_view content_type) {
  content_type = content_type.substr(0, content_type.find(';'));
  while (!content_type.empty() && content_type.back() == ' ') content_type.remove_suffix(1);
  if (!isMediaType(content_type)) return false;
  if (mediaOf(question.response_type) == AnswerMedia::kDrawing) {
    return equalsIgnoringAsciiCase(content_type, kDrawingContentType);
  }
  const boost::json::value* allowed = setting(question, "allowed_types");
  if (!allowed || !allowed->is_array() || allowed->as_array().empty()) return true;
  const std::string type = asciiLowercase(content_type);
  for (const auto& item : allowed->as_array()) {
    if (!item.is_string()) continue;
    const std::string pattern = asciiLowercase(item.as_string());
    if (pattern == type) return true;
    if (pattern.size() > 2 && pattern.compare(pattern.size() - 2, 2, "/*") == 0 &&
        type.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0) {
      return true;
    }
  }
  return false;
}

Problem textAnswerProblem(const Question&, boost::json::value& value) {
  return textWithin(value, limits::kMaxTextAnswerCharacters);
}

Problem voiceAnswerProblem(const Question& question, boost::json::value& value) {
  // A voice question takes a recording (the audio upload); a typed answer only when the
  // question falls back to text.
  if (!question.fallback_to_text) return "must be recorded: this question takes no typed answer";
  return textWithin(value, limits::kMaxTextAnswerCharacters);
}

Problem voiceTextAnswerProblem(const Question& question, boost::json::value& value) {
  auto limit = settingNumber(question, "max_characters");
  return textWithin(value,
                    limit ? static_cast<std::size_t>(*limit) : limits::kMaxTextAnswerCharacters);
}

Problem choiceAnswerProblem(const Question& question, boost::json::value& value) {
  const boost::json::value* options = setting(question, "options");
  if (!options || !options->is_array()) return "has no options to choose from";
  const auto& list = options->as_array();
  if (value.is_string()) {
    if (isOption(list, value)) return std::nullopt;
    return "must be one of the question's options";
  }
  if (!settingFlag(question, "allow_multiple")) return "must be one of the question's options";
  // An empty list chooses nothing: valid, and no answer to a required question.
  if (!value.is_array()) return "must be an option or a list of options";
  const auto& chosen = value.as_array();
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (!isOption(list, chosen[i])) return "must hold only the question's options";
    for (std::size_t j = 0; j < i; ++j) {
      if (chosen[j] == chosen[i]) return "must not repeat an option";
    }
  }
  return std::nullopt;
}

Problem numberAnswerProblem(const Question& question, boost::json::value& value) {
  auto n = numericValue(value);
  if (!n) return "must be a number";
  auto min = settingNumber(question, "min");
  auto max = settingNumber(question, "max");
  if (min && *n < *min) return "must be at least " + numberText(*min);
  if (max && *n > *max) return "must be at most " + numberText(*max);
  if (auto step = settingNumber(question, "step"); step && *step > 0) {
    if (!onStep(*n, min.value_or(0), *step)) {
      return "must be a multiple of " + numberText(*step) +
             (min ? " from " + numberText(*min) : std::string());
    }
  }
  return std::nullopt;
}

Problem cardAnswerProblem(const Question& question, boost::json::value& value) {
  if (!value.is_string() || !selectedCard(question, value)) {
    return "must be the id of one of the question's cards";
  }
  return std::nullopt;
}

Problem emailAnswerProblem(const Question&, boost::json::value& value) {
  if (!value.is_string() || !isEmailAddress(value.as_string())) {
    return "must be an email address such as name@example.com";
  }
  return std::nullopt;
}

Problem dateAnswerProblem(const Question&, boost::json::value& value) {
  if (!value.is_string() || !isCalendarDate(value.as_string())) {
    return "must be a date written YYYY-MM-DD";
  }
  return std::nullopt;
}

Problem yesNoAnswerProblem(const Question&, boost::json::value& value) {
  if (!value.is_bool()) return "must be true or false";
  return std::nullopt;
}

int64_t maxFileBytes(const Question& question) {
  if (mediaOf(question.response_type) == AnswerMedia::kDrawing) {
    return static_cast<int64_t>(settingNumber(question, "max_size_kb").value_or(0) * 1024);
  }
  const double mib =
      std::min<double>(settingNumber(question, "max_size_mb").value_or(limits::kMaxFileUploadMiB),
                       limits::kMaxFileUploadMiB);
  return static_cast<int64_t>(mib * 1024 * 1024);
}

std::string fileLimitText(const Question& question) {
  if (mediaOf(question.response_type) == AnswerMedia::kDrawing) {
    return numberText(settingNumber(question, "max_size_kb").value_or(0)) + " KiB";
  }
  return numberText(std::min<double>(
             settingNumber(question, "max_size_mb").value_or(limits::kMaxFileUploadMiB),
             limits::kMaxFileUploadMiB)) +
         " MB";
}

Problem fileAnswerProblem(const Question& question, boost::json::value& value) {
  if (!value.is_object()) return "must be a stored file {file_name, content_type, size_bytes, url}";
  const auto& file = value.as_object();
  for (const auto& entry : file) {
    auto key = entry.key();
    if (key != "file_name" && key != "content_type" && key != "size_bytes" && key != "url") {
      return "has an unknown field '" + std::string(key) + "'";
    }
  }
  const auto* name = file.if_contains("file_name");
  if (!name || !name->is_string() || name->as_string().empty() ||
      name->as_string().size() > kMaxFileNameLength) {
    return "file_name must be a string of 1 to 255 characters";
  }
  const auto* type = file.if_contains("content_type");
  if (!type || !type->is_string() || !isMediaType(type->as_string())) {
    return "content_type must be a media type such as application/pdf";
  }
  if (!isAllowedFileType(question, type->as_string())) {
    return "content_type '" + std::string(type->as_string()) + "' is not an allowed type";
  }
  const auto* size = file.if_contains("size_bytes");
  const int64_t bytes = size ? wholeNumber(*size).value_or(-1) : -1;
  if (bytes < 0) return "size_bytes must be a whole number of bytes";
  if (bytes > maxFileBytes(question))
    return "size_bytes must be at most " + fileLimitText(question);
  const auto* url = file.if_contains("url");
  if (!url || !url->is_string() || !isHttpUrl(url->as_string(), false)) {
    return "url must be an absolute http(s) URL";
  }
  return std::nullopt;
}

int64_t maxRecordingBytes(const Question& question, bool compressed) {
  const auto wav = static_cast<int64_t>(limits::kMaxAudioUploadBytes);
  if (!compressed) return wav;
  const double seconds =
      settingNumber(question, "max_duration").value_or(limits::kMaxRecordingSeconds);
  const auto allowed = static_cast<int64_t>(seconds * limits::kCompressedAudioBytesPerSecond);
  return std::clamp(allowed, wav, static_cast<int64_t>(limits::kMaxCompressedAudioUploadBytes));
}

Problem durationProblem(const Question& question, double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "must last a positive number of seconds";
  auto max = settingNumber(question, "max_duration");
  if (max && seconds > *max) return "must last at most " + numberText(*max) + " seconds";
  return std::nullopt;
}

std::optional<SelectedCard> selectedCard(const Question& question,
                                         const boost::json::value& value) {
  const boost::json::value* cards = setting(question, "cards");
  if (!cards || !cards->is_array() || !value.is_string()) return std::nullopt;
  auto text = [](const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
  };
  for (const auto& item : cards->as_array()) {
    if (!item.is_object()) continue;
    const auto& card = item.as_object();
    if (text(card, "id") != value.as_string()) continue;
    return SelectedCard{text(card, "id"), text(card, "label"), text(card, "media_url"),
                        text(card, "media_type")};
  }
  return std::nullopt;
}

Problem longTextAnswerProblem(const Question& question, boost::json::value& value) {
  return textWithin(
      value, static_cast<std::size_t>(settingNumber(question, "max_characters").value_or(0)));
}

Problem phoneAnswerProblem(const Question& question, boost::json::value& value) {
  if (!value.is_string()) return "must be a phone number";
  const auto* country = setting(question, "default_country");
  auto number = e164Number(value.as_string(), country && country->is_string()
                                                  ? std::string_view(country->as_string())
                                                  : std::string_view());
  if (!number) {
    return country ? "must be a valid phone number"
                   : "must be a phone number in international form (+44 20 7946 0958)";
  }
  value = std::move(*number);
  return std::nullopt;
}

Problem urlAnswerProblem(const Question&, boost::json::value& value) {
  if (!value.is_string() || !isHttpUrl(value.as_string(), false)) {
    return "must be an absolute http or https URL of at most 2048 characters";
  }
  return std::nullopt;
}

Problem timeAnswerProblem(const Question& question, boost::json::value& value) {
  if (!value.is_string() || !isClockTime(value.as_string())) {
    return "must be a time written HH:MM (24 hours)";
  }
  const auto* min = setting(question, "min");
  const auto* max = setting(question, "max");
  if (min && min->is_string() && value.as_string() < min->as_string()) {
    return "must not be before " + std::string(min->as_string());
  }
  if (max && max->is_string() && value.as_string() > max->as_string()) {
    return "must not be after " + std::string(max->as_string());
  }
  return std::nullopt;
}

Problem datetimeAnswerProblem(const Question&, boost::json::value& value) {
  auto micros = value.is_string() ? instantMicros(value.as_string()) : std::nullopt;
  if (!micros) return "must be a date and time with an offset, such as 2024-03-10T12:30:00+02:00";
  value = utcText(*micros);
  return std::nullopt;
}

Problem hiddenFieldAnswerProblem(const Question&, boost::json::value& value) {
  return textWithin(value, kMaxHiddenValueCharacters);
}

}  // namespace feedback::questions
