#pragma once
// Appends JSON to a string without building a DOM: the gateway renders every answer with it,
// and JSON fragments stored as text (question configuration) are spliced in unparsed.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/core/log.h"

namespace feedback {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& beginObject() { return open('{'); }
  JsonWriter& endObject() { return close('}'); }
  JsonWriter& beginArray() { return open('['); }
  JsonWriter& endArray() { return close(']'); }

  JsonWriter& key(std::string_view name) {
    separate();
    log::appendJsonString(out_, name);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& string(std::string_view value) {
    separate();
    log::appendJsonString(out_, value);
    return *this;
  }
  JsonWriter& integer(int64_t value) {
    separate();
    out_ += std::to_string(value);
    return *this;
  }
  // The shortest text that reads back as the same double; non-finite values (which JSON
  // cannot hold) are written as null.
  JsonWriter& number(double value) {
    separate();
    if (!std::isfinite(value)) {
      out_ += "null";
      return *this;
    }
    // -0 is written 0, as people write it: "-0" reads back as the integer 0 (Boost.JSON), so
    // a value written again after a read would change (a model's -0.0 sentiment_score did).
    if (value == 0) value = 0;
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out_.append(buffer, result.ptr);
    return *this;
  }
  JsonWriter& boolean(bool value) {
    separate();
    out_ += value ? "true" : "false";
    return *this;
  }
  JsonWriter& null() {
    separate();
    out_ += "null";
    return *this;
  }
  // `json` must already be valid JSON.
  JsonWriter& raw(std::string_view json) {
    separate();
    out_ += json;
    return *this;
  }

  // Where the next character will be written, e.g. to patch a value in later.
  std::size_t position() const { return out_.size(); }

  template <class T>
  JsonWriter& field(std::string_view name, const T& value) {
    key(name);
    if constexpr (std::is_same_v<T, bool>) {
      return boolean(value);
    } else if constexpr (std::is_integral_v<T>) {
      return integer(static_cast<int64_t>(value));
    } else if constexpr (std::is_floating_point_v<T>) {
      return number(static_cast<double>(value));
    } else {
      return string(value);
    }
  }

 private:
  JsonWriter& open(char c) {
    separate();
    out_ += c;
    first_ = true;
    return *this;
  }
  JsonWriter& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) out_ += ',';
    first_ = false;
  }

  std::string& out_;
  bool first_ = true;
  bool after_key_ = false;
};

}  // namespace feedback
