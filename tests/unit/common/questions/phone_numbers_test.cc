// e164Number against libphonenumber's own parsing and validation: its shortcuts (the calling
// code's main region first; no Parse for a number that Parse would only strip of its
// separators, phone_numbers.cc) must accept exactly the numbers, and give exactly the E.164
// forms, that PhoneNumberUtil::Parse and IsValidNumber give.
#include "common/questions/phone_numbers.h"

#include <phonenumbers/phonenumberutil.h>

#include <catch2/catch.hpp>
#include <random>
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

namespace {

// Digit strings a region's numbers may be typed as: its example numbers in national and in
// international form, each also with every first digit and with a digit before it (to meet
// national prefixes, international prefixes and calling codes), and random ones.
std::set<std::string> typedForms(const PhoneNumberUtil& util, const std::string& region,
                                 std::mt19937& random) {
  std::set<std::string> out;
  std::set<PhoneNumberUtil::PhoneNumberType> types;
  util.GetSupportedTypesForRegion(region, &types);
  for (auto type : types) {
    PhoneNumber example;
    if (!util.GetExampleNumberForType(region, type, &example)) continue;
    for (auto format : {PhoneNumberUtil::NATIONAL, PhoneNumberUtil::INTERNATIONAL}) {
      std::string typed;
      util.Format(example, format, &typed);
      out.insert(typed);
      const auto first = typed.find_first_of("0123456789");
      if (first == std::string::npos) continue;
      for (char digit = '0'; digit <= '9'; ++digit) {
        std::string changed = typed;
        changed[first] = digit;
        out.insert(changed);
        out.insert(typed.substr(0, first) + digit + typed.substr(first));
      }
    }
  }
  std::uniform_int_distribution<int> digit(0, 9), length(4, 15);
  for (int i = 0; i < 60; ++i) {
    std::string digits;
    for (int n = length(random); n > 0; --n) digits += static_cast<char>('0' + digit(random));
    out.insert(digits);
    out.insert("+" + digits);
    out.insert("(" + digits.substr(0, 3) + ") " + digits.substr(3));
  }
  return out;
}

}  // namespace

TEST_CASE("phone numbers: the shortcut around Parse gives what Parse gives, in every region",
          "[questions]") {
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  std::set<std::string> regions;
  util.GetSupportedRegions(&regions);
  std::mt19937 random(27);
  int checked = 0, taken = 0;
  for (const auto& region : regions) {
    if (!isCountryCode(region)) continue;
    for (const auto& typed : typedForms(util, region, random)) {
      for (const std::string& country : {region, std::string()}) {
        const auto shortcut = e164NumberWithoutParse(typed, country);
        const auto parsed = e164NumberByParse(typed, country);
        INFO(region << " (default country '" << country << "'): " << typed);
        // The shortcut gives a number only where Parse gives that same number; where it
        // gives none, e164Number asks Parse.
        if (shortcut) CHECK(shortcut == parsed);
        CHECK(e164Number(typed, country) == parsed);
        ++checked;
        taken += shortcut ? 1 : 0;
      }
    }
  }
  INFO(checked << " typed numbers, " << taken << " through the shortcut");
  CHECK(checked > 50000);
  CHECK(taken > 5000);
}

TEST_CASE("phone numbers: what the shortcut leaves to Parse", "[questions]") {
  // Typed with the national prefix, an international prefix, the calling code without "+",
  // letters or an extension: Parse alone reads these.
  CHECK_FALSE(e164NumberWithoutParse("020 7946 0958", "GB"));
  CHECK(e164Number("020 7946 0958", "GB") == "+442079460958");
  CHECK_FALSE(e164NumberWithoutParse("1 415 555 0123", "US"));
  CHECK_FALSE(e164NumberWithoutParse("011 44 20 7946 0958", "US"));
  CHECK(e164Number("011 44 20 7946 0958", "US") == "+442079460958");
  CHECK_FALSE(e164NumberWithoutParse("44 20 7946 0958", "GB"));
  CHECK_FALSE(e164NumberWithoutParse("+39 06 1234 5678", ""));
  CHECK_FALSE(e164NumberWithoutParse("1-800-FLOWERS", "US"));
  CHECK_FALSE(e164NumberWithoutParse("(415) 555-0123 ext. 5", "US"));
  // What it takes: separators dropped, the digits as typed.
  CHECK(e164NumberWithoutParse("(415) 555-0123", "US") == "+14155550123");
  CHECK(e164NumberWithoutParse(" +44 (20) 7946.0958", "") == "+442079460958");
  CHECK(e164NumberWithoutParse("+44 7400 123456", "FR") == "+447400123456");
}
