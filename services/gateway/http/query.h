#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feedback::gateway {

// A parsed query string: names and values percent-decoded ('+' is a space).
class Query {
 public:
  explicit Query(std::string_view raw);
  // The last value given for `name`. VALIDATION_ERROR when it is not UTF-8 text (such as
  // "%FF"): a value goes on into protobuf strings, JSON and SQL, none of which can hold it.
  std::optional<std::string> get(std::string_view name) const;
  // The last value given for `name`, whatever its bytes: only for comparing (signatures).
  std::optional<std::string> bytes(std::string_view name) const;
  // The raw query with every `name` parameter replaced by `name=value` at the end.
  std::string with(std::string_view name, std::string_view value) const;

 private:
  std::string_view raw_;
  std::vector<std::pair<std::string, std::string>> pairs_;
};

std::string percentDecode(std::string_view text);

}  // namespace feedback::gateway
