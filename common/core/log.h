#pragma once
// JSON lines on stdout, one object per event: {"ts","level","event",...fields}.

#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>

namespace feedback::log {

struct Field {
  using Value = std::variant<std::string_view, long long, double, bool>;
  Field(std::string_view k, std::string_view v) : key(k), value(v) {}
  Field(std::string_view k, const char* v) : key(k), value(std::string_view(v)) {}
  Field(std::string_view k, const std::string& v) : key(k), value(std::string_view(v)) {}
  Field(std::string_view k, long long v) : key(k), value(v) {}
  Field(std::string_view k, int v) : key(k), value(static_cast<long long>(v)) {}
  Field(std::string_view k, long v) : key(k), value(static_cast<long long>(v)) {}
  Field(std::string_view k, unsigned long v) : key(k), value(static_cast<long long>(v)) {}
  Field(std::string_view k, double v) : key(k), value(v) {}
  Field(std::string_view k, bool v) : key(k), value(v) {}
  std::string_view key;
  Value value;
};

void setService(std::string_view service);
void info(std::string_view event, std::initializer_list<Field> fields = {});
void warn(std::string_view event, std::initializer_list<Field> fields = {});
void error(std::string_view event, std::initializer_list<Field> fields = {});

// While it lives, every line this thread writes carries "trace_id" (common/core/trace.h):
// a request's handling sets it, so that its lines can be found together across processes.
class TraceScope {
 public:
  explicit TraceScope(std::string trace_id);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  std::string previous_;
};

// Appends `text` to `out` as a JSON string literal, quotes included.
void appendJsonString(std::string& out, std::string_view text);

}  // namespace feedback::log
