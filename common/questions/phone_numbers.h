#pragma once
// Phone numbers and countries as answers give them (docs/api.md "Question types"), from
// maintained sources rather than tables of our own: libphonenumber parses and validates
// numbers, ICU lists the ISO 3166-1 alpha-2 country codes.

#include <optional>
#include <string>
#include <string_view>

namespace feedback::questions {

// True for an ISO 3166-1 alpha-2 code in any case ("gb", "GB").
bool isCountryCode(std::string_view code);
// `code` in upper case.
std::string countryCodeOf(std::string_view code);
// The E.164 form (+14155550123) of a number typed in international form or, with
// `default_country` (an ISO code; may be empty), in that country's national form; spaces,
// dashes, dots and brackets are allowed. nullopt when it cannot be parsed, is not a valid
// number of its country, or has an extension (which E.164 cannot hold).
std::optional<std::string> e164Number(std::string_view typed, std::string_view default_country);

// The two ways e164Number takes, apart for the tests that hold them to each other:
// libphonenumber's Parse, and, for a number typed with digits and separators only that Parse
// would only strip of its separators, the number built from its digits (nullopt when the
// shortcut does not apply or gives no valid number). Both validate with libphonenumber.
std::optional<std::string> e164NumberByParse(std::string_view typed,
                                             std::string_view default_country);
std::optional<std::string> e164NumberWithoutParse(std::string_view typed,
                                                  std::string_view default_country);

}  // namespace feedback::questions
