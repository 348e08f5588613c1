// A calculated question's formula (common/questions/formula.h): any text is parsed or refused
// with a reason, and a parsed formula evaluates against any answers to a finite number or to
// nothing (a calculated value is stored as a JSON number).
#include <cmath>
#include <functional>
#include <string>

#include "common/questions/formula.h"
#include "tests/fuzz/fuzz_check.h"

using feedback::questions::Formula;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::string error;
  auto formula = Formula::parse(feedback::fuzz::asText(data, size), &error);
  if (!formula) {
    FUZZ_CHECK(!error.empty());
    return 0;
  }
  FUZZ_CHECK(error.empty());
  // Operands chosen by the field's name, so that one input always evaluates alike: some
  // unanswered, some zero (division), some huge (overflow), some ordinary.
  const auto& fields = formula->fields();
  auto operand = [&fields](const std::string& field) -> std::optional<double> {
    // A formula reads only the fields it names (a link is checked against them).
    FUZZ_CHECK(fields.count(field) == 1);
    switch (std::hash<std::string>{}(field) % 5) {
      case 0:
        return std::nullopt;
      case 1:
        return 0.0;
      case 2:
        return 1.7e308;
      case 3:
        return -3.5;
      default:
        return static_cast<double>(field.size());
    }
  };
  for (const auto& of : {std::function<std::optional<double>(const std::string&)>(operand),
                         std::function<std::optional<double>(const std::string&)>(
                             [](const std::string&) { return std::optional(1e300); })}) {
    auto value = formula->evaluate(of);
    FUZZ_CHECK(!value || std::isfinite(*value));
  }
  return 0;
}
