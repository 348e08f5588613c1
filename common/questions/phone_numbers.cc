#include "common/questions/phone_numbers.h"

#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumberutil.h>
#include <unicode/uloc.h>

#include <set>
#include <unordered_map>

#include "common/core/ascii.h"

// libphonenumber's compiled-in metadata, the one its PhoneNumberUtil loads: declared by its
// metadata.h, which Debian does not install, and exported by libphonenumber.so.8.
namespace i18n::phonenumbers {
int metadata_size();
const void* metadata_get();
}  // namespace i18n::phonenumbers

namespace feedback::questions {
namespace {

using i18n::phonenumbers::PhoneMetadata;
using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

// Longer input is no phone number; libphonenumber's own limit is 250.
constexpr std::size_t kMaxTypedLength = 64;
// The longest national number libphonenumber parses (its kMaxLengthForNsn).
constexpr std::size_t kMaxNationalDigits = 17;

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
// main region is the first one tried, so a number valid there is valid. phone_numbers_test.cc
// checks that the two agree on the example numbers of every region and type.
bool isValidNumber(const PhoneNumberUtil& util, const PhoneNumber& number) {
  std::string main_region;
  util.GetRegionCodeForCountryCode(number.country_code(), &main_region);
  return util.IsValidNumberForRegion(number, main_region) || util.IsValidNumber(number);
}

// What PhoneNumberUtil::Parse would strip from a region's numbers, when it is a plain string
// of digits. Parse takes 25 µs a number, most of it in a dozen ICU regular expressions; a
// fifth of the responses service's CPU went to the two numbers of a 32-type response.
struct Prefixes {
  int calling_code = 0;
  std::string calling_code_digits;
  // national_prefix_for_parsing ("0" in GB, "1" in the US); may be empty.
  std::string national;
  // international_prefix, the prefix dialled before a calling code ("00", "011").
  std::string international;
  // Both plain digits and no transform rule (Argentina's, Brazil's and Mexico's are patterns):
  // a number that does not start with one of them is left as typed.
  bool plain = false;
};

class ParsePrefixes {
 public:
  ParsePrefixes() {
    i18n::phonenumbers::PhoneMetadataCollection collection;
    // Without the metadata every number takes Parse: slower, never wrong.
    if (!collection.ParseFromArray(i18n::phonenumbers::metadata_get(),
                                   i18n::phonenumbers::metadata_size())) {
      return;
    }
    const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
    for (const PhoneMetadata& metadata : collection.metadata()) {
      Prefixes prefixes{metadata.country_code(), std::to_string(metadata.country_code()),
                        metadata.national_prefix_for_parsing(), metadata.international_prefix()};
      prefixes.plain = allAsciiDigits(prefixes.national) &&
                       allAsciiDigits(prefixes.international) &&
                       !metadata.has_national_prefix_transform_rule();
      std::string main_region;
      util.GetRegionCodeForCountryCode(metadata.country_code(), &main_region);
      // Parse reads an international number with its calling code's main region's metadata
      // (a non-geographic entity's, "001", for +800 and the like).
      if (metadata.id() == main_region) by_calling_code_.emplace(prefixes.calling_code, prefixes);
      if (metadata.id() != "001") by_region_.emplace(metadata.id(), std::move(prefixes));
    }
  }

  const Prefixes* ofRegion(const std::string& region) const {
    auto found = by_region_.find(region);
    return found == by_region_.end() ? nullptr : &found->second;
  }
  const Prefixes* ofCallingCode(int code) const {
    auto found = by_calling_code_.find(code);
    return found == by_calling_code_.end() ? nullptr : &found->second;
  }

 private:
  std::unordered_map<std::string, Prefixes> by_region_;
  std::unordered_map<int, Prefixes> by_calling_code_;
};

const ParsePrefixes& parsePrefixes() {
  static const ParsePrefixes prefixes;
  return prefixes;
}

bool startsWith(std::string_view text, std::string_view prefix) {
  return !prefix.empty() && text.substr(0, prefix.size()) == prefix;
}

// The digits of a number typed with digits, spaces, dashes, dots and brackets only, and
// whether a "+" (after leading spaces) started it; nullopt for anything else (letters, an
// extension, other separators, digits of other scripts), which Parse reads in its own ways.
struct PlainTyped {
  bool international = false;
  std::string digits;
};

std::optional<PlainTyped> plainTyped(std::string_view typed) {
  PlainTyped out;
  std::size_t i = typed.find_first_not_of(' ');
  if (i == std::string_view::npos) return std::nullopt;
  if (typed[i] == '+') {
    out.international = true;
    ++i;
  }
  for (; i < typed.size(); ++i) {
    const char c = typed[i];
    if (isAsciiDigit(c)) {
      out.digits += c;
    } else if (c != ' ' && c != '-' && c != '.' && c != '(' && c != ')') {
      return std::nullopt;
    }
  }
  return out;
}

// The calling code an international number starts with: calling codes are prefix-free, so
// the first 1 to 3 digits that make one are it (as in Parse).
std::optional<int> leadingCallingCode(const PhoneNumberUtil& util, std::string_view digits) {
  std::string region;
  int code = 0;
  for (std::size_t length = 1; length <= 3 && length < digits.size(); ++length) {
    code = code * 10 + (digits[length - 1] - '0');
    util.GetRegionCodeForCountryCode(code, &region);
    if (region != "ZZ") return code;
  }
  return std::nullopt;
}

// The number Parse would make of `typed`, when Parse would only drop its separators: the
// digits carry no international prefix, no calling code where a national number is expected,
// no national prefix and no leading zero (which Parse keeps apart, as in Italy). nullopt
// when any of these may apply: Parse then decides.
std::optional<PhoneNumber> parsedWithoutParse(const PhoneNumberUtil& util, std::string_view typed,
                                              const std::string& region) {
  auto plain = plainTyped(typed);
  if (!plain || plain->digits.empty() || plain->digits[0] == '0') return std::nullopt;
  std::string_view national = plain->digits;
  const Prefixes* prefixes = nullptr;
  if (plain->international) {
    auto code = leadingCallingCode(util, national);
    if (!code) return std::nullopt;
    prefixes = parsePrefixes().ofCallingCode(*code);
    if (prefixes) national.remove_prefix(prefixes->calling_code_digits.size());
  } else {
    prefixes = parsePrefixes().ofRegion(region);
    if (!prefixes || prefixes->international.empty() ||
        startsWith(national, prefixes->international) ||
        startsWith(national, prefixes->calling_code_digits)) {
      return std::nullopt;
    }
  }
  if (!prefixes || !prefixes->plain || national.empty() || national.size() > kMaxNationalDigits ||
      national[0] == '0' || startsWith(national, prefixes->national)) {
    return std::nullopt;
  }
  PhoneNumber number;
  number.set_country_code(prefixes->calling_code);
  number.set_national_number(std::stoull(std::string(national)));
  return number;
}

std::string defaultRegion(std::string_view default_country) {
  // "ZZ" is libphonenumber's unknown region: only international numbers parse.
  std::string code = countryCodeOf(default_country);
  return code.size() == 2 && countryCodes().count(code) > 0 ? code : std::string("ZZ");
}

bool mayBeNumber(std::string_view typed) {
  return !typed.empty() && typed.size() <= kMaxTypedLength;
}

std::optional<std::string> byParse(const PhoneNumberUtil& util, std::string_view typed,
                                   const std::string& region) {
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

std::optional<std::string> withoutParse(const PhoneNumberUtil& util, std::string_view typed,
                                        const std::string& region) {
  auto number = parsedWithoutParse(util, typed, region);
  if (!number || !isValidNumber(util, *number)) return std::nullopt;
  return "+" + std::to_string(number->country_code()) + std::to_string(number->national_number());
}

}  // namespace

std::string countryCodeOf(std::string_view code) {
  return asciiUppercase(code);
}

bool isCountryCode(std::string_view code) {
  return code.size() == 2 && countryCodes().count(countryCodeOf(code)) > 0;
}

std::optional<std::string> e164NumberByParse(std::string_view typed,
                                             std::string_view default_country) {
  if (!mayBeNumber(typed)) return std::nullopt;
  return byParse(*PhoneNumberUtil::GetInstance(), typed, defaultRegion(default_country));
}

std::optional<std::string> e164NumberWithoutParse(std::string_view typed,
                                                  std::string_view default_country) {
  if (!mayBeNumber(typed)) return std::nullopt;
  return withoutParse(*PhoneNumberUtil::GetInstance(), typed, defaultRegion(default_country));
}

std::optional<std::string> e164Number(std::string_view typed, std::string_view default_country) {
  if (!mayBeNumber(typed)) return std::nullopt;
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  const std::string region = defaultRegion(default_country);
  // A number the shortcut cannot take, or finds invalid, is read by Parse: Parse may still
  // make a valid number of it (by stripping a national prefix, say).
  if (auto number = withoutParse(util, typed, region)) return number;
  return byParse(util, typed, region);
}

}  // namespace feedback::questions
