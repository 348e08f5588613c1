#pragma once
// PostgreSQL array literals ('{"a","b\"c",NULL}'): many rows' values sent as one parameter
// of one statement (INSERT ... SELECT FROM unnest($1::text[], ...)), so that a batch of rows
// costs one round trip and one executor start instead of one per row.

#include <cstdint>
#include <string>
#include <string_view>

namespace feedback {

class PgArray {
 public:
  PgArray& add(std::string_view value);
  PgArray& add(int64_t value);
  PgArray& addNull();
  // The literal, valid for any element type that reads its elements from text.
  std::string text() const { return text_ + '}'; }
  std::size_t size() const { return size_; }

 private:
  void separate();

  std::string text_ = "{";
  std::size_t size_ = 0;
};

}  // namespace feedback
