#pragma once
// Arithmetic over field keys, the `formula` of a calculated question: numbers, field keys,
// + - * /, unary minus and parentheses, e.g. "(q1 + q2) * 2". Parsed once; evaluated against
// answers by the intake.

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace feedback::questions {

class Formula {
 public:
  // nullopt (with a reason in *error) when `text` is not a well-formed formula.
  static std::optional<Formula> parse(std::string_view text, std::string* error);

  // The field keys the formula reads.
  const std::set<std::string>& fields() const { return fields_; }
  // nullopt when a field has no numeric value or on division by zero.
  std::optional<double> evaluate(
      const std::function<std::optional<double>(const std::string&)>& value_of) const;

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
  std::set<std::string> fields_;
};

}  // namespace feedback::questions
