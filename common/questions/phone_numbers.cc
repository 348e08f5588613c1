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

// PhoneNumberUtil::IsValidNumber, in half the work for most numbers: it first finds the
// number's region among those of its calling code (25 for +1), each tried with the regular
// expressions of every number type, then checks the number there again. The calling code's
// main region is the first one tried, so a number valid there is valid. A fifth of the
// responses service's CPU went to two phone numbers; phone_numbers_test.cc checks that the
// two agree on the example numbers of every region and type.
bool isValidNumber(const i18n::phonenumbers::PhoneNumberUtil& util,
                   const i18n::phonenumbers::PhoneNumber& number) {
  std::string main_region;
  util.GetRegionCodeForCountryCode(number.country_code(), &main_region);
  return util.IsValidNumberForRegion(number, main_region) || util.IsValidNumber(number);
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
  if (number.has_extension() || !isValidNumber(util, number)) return std::nullopt;
  std::string out;
  util.Format(number, PhoneNumberUtil::E164, &out);
  return out;
}

}  // namespace feedback::questions
