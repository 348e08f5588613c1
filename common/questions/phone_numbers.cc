#include "common/questions/phone_numbers.h"

#include <phonenumbers/phonenumberutil.h>
#include <unicode/uloc.h>

#include <set>

#include "common/core/ascii.h"

namespace feedback::questions {
namespace {

// Longer input is no phone number; libphonenumber's own limit is 250.
constexpr std::size_t kMaxTypedLength = 64;

const std::set<std::string, std::less<>>& countryCodes() {
  static const std::set<std::string, std::less<>> codes = [] {
    std::set<std::string, std::less<>> out;
    for (const char* const* code = uloc_getISOCountries(); *code; ++code) out.emplace(*code);
    return out;
  }();
  return codes;
}

}  // namespace

std::string countryCodeOf(std::string_view code) {
  return asciiUppercase(code);
}

bool isCountryCode(std::string_view code) {
  return code.size() == 2 && countryCodes().count(countryCodeOf(code)) > 0;
}

std::optional<std::string> e164Number(std::string_view typed, std::string_view default_country) {
  using i18n::phonenumbers::PhoneNumber;
  using i18n::phonenumbers::PhoneNumberUtil;
  if (typed.empty() || typed.size() > kMaxTypedLength) return std::nullopt;
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  // "ZZ" is libphonenumber's unknown region: only international numbers parse.
  const std::string region =
      isCountryCode(default_country) ? countryCodeOf(default_country) : std::string("ZZ");
  PhoneNumber number;
  if (util.Parse(std::string(typed), region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) {
    return std::nullopt;
  }
  // E.164 has no extension: a number typed with one would be stored without it.
  if (!util.IsValidNumber(number) || number.has_extension()) return std::nullopt;
  std::string out;
  util.Format(number, PhoneNumberUtil::E164, &out);
  return out;
}

}  // namespace feedback::questions
