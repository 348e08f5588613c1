#include "common/core/log.h"

#include <cstdio>
#include <mutex>

#include "common/core/text.h"
#include "common/core/time.h"

namespace feedback::log {
namespace {

std::string& serviceName() {
  static std::string name = "feedback";
  return name;
}

thread_local std::string current_trace;

void write(std::string_view level, std::string_view event, std::initializer_list<Field> fields) {
  std::string line;
  line.reserve(256);
  line += "{\"ts\":\"";
  line += formatTimestamp(nowMicros());
  line += "\",\"level\":\"";
  line += level;
  line += "\",\"service\":";
  appendJsonString(line, serviceName());
  line += ",\"event\":";
  appendJsonString(line, event);
  if (!current_trace.empty()) {
    line += ",\"trace_id\":";
    appendJsonString(line, current_trace);
  }
  for (const auto& f : fields) {
    line += ',';
    appendJsonString(line, f.key);
    line += ':';
    std::visit(
        [&line](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::string_view>) {
            appendJsonString(line, v);
          } else if constexpr (std::is_same_v<T, bool>) {
            line += v ? "true" : "false";
          } else {
            line += std::to_string(v);
          }
        },
        f.value);
  }
  line += "}\n";
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

void setService(std::string_view service) {
  serviceName() = service;
}
void info(std::string_view event, std::initializer_list<Field> fields) {
  write("info", event, fields);
}
void warn(std::string_view event, std::initializer_list<Field> fields) {
  write("warn", event, fields);
}
void error(std::string_view event, std::initializer_list<Field> fields) {
  write("error", event, fields);
}

TraceScope::TraceScope(std::string trace_id) : previous_(std::move(current_trace)) {
  current_trace = std::move(trace_id);
}

TraceScope::~TraceScope() {
  current_trace = std::move(previous_);
}

void appendJsonString(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  // Copies runs of characters that need no escape in one go; most text is one run.
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      // JSON is UTF-8: a byte that starts no well-formed sequence (text from outside that
      // was never checked) is written as U+FFFD, so that the document stays readable.
      const std::size_t length = utf8SequenceLength(text, i);
      if (length > 0) {
        i += length - 1;
        continue;
      }
      out.append(text.data() + run, i - run);
      run = i + 1;
      out += "\\ufffd";
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
    }
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

}  // namespace feedback::log
