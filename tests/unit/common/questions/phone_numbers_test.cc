// e164Number against libphonenumber's own validation: the shortcut it takes (the calling
// code's main region first, phone_numbers.cc) must accept exactly the numbers that
// PhoneNumberUtil::IsValidNumber accepts.
#include "common/questions/phone_numbers.h"

#include <phonenumbers/phonenumberutil.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>

using namespace feedback::questions;
using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

// The number in international form and the number with its last digit changed: examples are
// valid by design, their neighbours often not.
std::set<std::string> neighbours(const PhoneNumberUtil& util, const PhoneNumber& example) {
  std::string typed;
  util.Format(example, PhoneNumberUtil::INTERNATIONAL, &typed);
  std::set<std::string> out{typed};
  const auto last = typed.find_last_of("0123456789");
  for (char digit = '0'; digit <= '9'; ++digit) {
    std::string changed = typed;
    changed[last] = digit;
    out.insert(changed);
  }
  out.insert(typed.substr(0, last));  // a digit short
  out.insert(typed + "5");            // a digit long
  return out;
}

}  // namespace

TEST_CASE("phone numbers: valid exactly when libphonenumber says so, in every region",
          "[questions]") {
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  std::set<std::string> regions;
  util.GetSupportedRegions(&regions);
  REQUIRE(regions.size() > 200);
  int checked = 0, valid = 0;
  for (const auto& region : regions) {
    std::set<PhoneNumberUtil::PhoneNumberType> types;
    util.GetSupportedTypesForRegion(region, &types);
    std::set<std::string> typed;
    for (auto type : types) {
      PhoneNumber example;
      if (util.GetExampleNumberForType(region, type, &example)) {
        typed.merge(neighbours(util, example));
      }
    }
    for (const auto& text : typed) {
      PhoneNumber parsed;
      const bool parses = util.Parse(text, "ZZ", &parsed) == PhoneNumberUtil::NO_PARSING_ERROR;
      const bool expected = parses && !parsed.has_extension() && util.IsValidNumber(parsed);
      INFO(region << ": " << text);
      CHECK(e164Number(text, "").has_value() == expected);
      // Typed in national form with the region as the default country, as most are (a
      // default country is an ISO 3166-1 code: not Ascension's AC or Tristan da Cunha's TA).
      if (parses && expected && isCountryCode(region)) {
        std::string national;
        util.Format(parsed, PhoneNumberUtil::NATIONAL, &national);
        PhoneNumber again;
        const bool national_parses =
            util.Parse(national, region, &again) == PhoneNumberUtil::NO_PARSING_ERROR;
        CHECK(e164Number(national, region).has_value() ==
              (national_parses && !again.has_extension() && util.IsValidNumber(again)));
      }
      ++checked;
      valid += expected ? 1 : 0;
    }
  }
  INFO(checked << " numbers, " << valid << " valid");
  CHECK(checked > 10000);
  CHECK(valid > 2000);
  CHECK(checked - valid > 2000);
}
