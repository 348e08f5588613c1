#include "common/pg/pg_array.h"

namespace feedback {

void PgArray::separate() {
  if (size_++ > 0) text_ += ',';
}

// Every element is quoted, so that empty strings, spaces, commas, braces and the word NULL
// stay values; inside the quotes only '"' and '\' need a backslash.
PgArray& PgArray::add(std::string_view value) {
  separate();
  text_.reserve(text_.size() + value.size() + 2);
  text_ += '"';
  std::size_t from = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] != '"' && value[i] != '\\') continue;
    text_.append(value, from, i - from);
    text_ += '\\';
    from = i;
  }
  text_.append(value, from, std::string_view::npos);
  text_ += '"';
  return *this;
}

PgArray& PgArray::add(int64_t value) {
  separate();
  text_ += std::to_string(value);
  return *this;
}

PgArray& PgArray::addNull() {
  separate();
  text_ += "NULL";
  return *this;
}

}  // namespace feedback
