#pragma once
// The route table: path patterns such as "/v1/links/{uuid}/" with one entry per method.
// Patterns end with '/' (the path without it is redirected), but for pages and files such as
// "/i/{slug}" and ".../speech.wav", matched exactly.
// Resolution decides 404, the trailing-slash 301, 405 and path parameters, before any I/O.
// Parameters are typed: {uuid} (lowercase hyphenated UUID), {slug} (a link slug), {field_key}
// (a question's key) and {report_token} (a shared report's); a segment of the wrong form is an
// absent resource (404).

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace feedback::gateway {

enum class Method { kGet, kPost, kPut, kPatch, kDelete, kOther };

Method parseMethod(std::string_view method);
std::string_view methodName(Method method);

enum class Segment { kLiteral, kUuid, kSlug, kFieldKey, kReportToken };
// The kind of a pattern segment: "{uuid}", "{slug}", "{field_key}", "{report_token}" or a
// literal.
Segment segmentKind(std::string_view pattern_segment);
// Whether a request segment is a valid value of a parameter kind.
bool isValidParameter(Segment kind, std::string_view value);

template <class Entry>
class Router {
 public:
  struct Route {
    std::vector<std::string> segments;
    std::vector<Segment> kinds;
    Method method;
    Entry entry;
    // The file that registered it (docs/code-map.md names it as the route's handler).
    std::string_view source;

    // As registered, e.g. "/v1/links/{uuid}/".
    std::string pattern() const {
      std::string out;
      for (const auto& s : segments) out += "/" + s;
      return out;
    }
  };

  enum class Outcome { kFound, kNotFound, kRedirect, kMethodNotAllowed };
  struct Resolution {
    Outcome outcome = Outcome::kNotFound;
    const Route* route = nullptr;
    std::vector<std::string> params;  // the parameter segments, in order
    std::string allow;                // for kMethodNotAllowed, e.g. "GET, POST"
  };

  // `pattern` starts with '/' and ends with '/' unless it names a page or file.
  // `source` defaults to the caller's file (clang 14, which builds the fuzz targets, has no
  // std::source_location; both compilers have the builtin).
  void add(Method method, std::string_view pattern, Entry entry,
           std::string_view source = __builtin_FILE()) {
    Route route{split(pattern), {}, method, std::move(entry), source};
    for (const auto& s : route.segments) route.kinds.push_back(segmentKind(s));
    routes_.push_back(std::move(route));
  }

  Resolution resolve(std::string_view method_name, std::string_view path) const {
    Resolution result;
    if (path.empty() || path.front() != '/') return result;
    Segments segments;
    if (!segments.split(path)) return result;
    // Paths end with '/', but for the few named like files or pages ("/i/{slug}"): elsewhere
    // the path without its slash is redirected to the one with it.
    if (path.back() != '/' && !matchesAny(segments)) {
      if (segments.appendEmpty() && matchesAny(segments)) result.outcome = Outcome::kRedirect;
      return result;
    }
    Method method = parseMethod(method_name);
    bool path_known = false;
    bool param_invalid = false;
    for (const auto& route : routes_) {
      bool valid_params = true;
      if (!matches(route, segments, valid_params)) continue;
      path_known = true;
      if (!valid_params) {
        param_invalid = true;
        continue;
      }
      if (route.method == method && result.outcome != Outcome::kFound) {
        result.outcome = Outcome::kFound;
        result.route = &route;
      }
    }
    if (result.outcome == Outcome::kFound) {
      // Only the route found copies its parameters out of the path.
      for (std::size_t i = 0; i < segments.count; ++i) {
        if (result.route->kinds[i] != Segment::kLiteral) result.params.emplace_back(segments[i]);
      }
      return result;
    }
    // A malformed parameter is an absent resource, not a wrong method.
    if (path_known && !param_invalid) {
      result.outcome = Outcome::kMethodNotAllowed;
      for (const auto& route : routes_) {
        bool valid = true;
        if (!matches(route, segments, valid)) continue;
        if (!result.allow.empty()) result.allow += ", ";
        result.allow += methodName(route.method);
      }
    }
    return result;
  }

  const std::vector<Route>& all() const { return routes_; }

 private:
  // A request path's segments, viewed in place: resolving a path allocates nothing but the
  // found route's parameters. No route has more segments than this.
  struct Segments {
    static constexpr std::size_t kMax = 16;
    std::array<std::string_view, kMax> parts;
    std::size_t count = 0;

    const std::string_view& operator[](std::size_t i) const { return parts[i]; }
    // False for a path of more segments than any route has.
    bool split(std::string_view path) {
      std::size_t start = 1;
      while (start <= path.size()) {
        auto slash = path.find('/', start);
        if (slash == std::string_view::npos) slash = path.size();
        if (count == kMax) return false;
        parts[count++] = path.substr(start, slash - start);
        start = slash + 1;
      }
      return true;  // a trailing '/' yields a final empty segment
    }
    bool appendEmpty() {
      if (count == kMax) return false;
      parts[count++] = {};
      return true;
    }
  };

  static std::vector<std::string> split(std::string_view path) {
    std::vector<std::string> out;
    std::size_t start = 1;
    while (start <= path.size()) {
      auto slash = path.find('/', start);
      if (slash == std::string_view::npos) slash = path.size();
      out.emplace_back(path.substr(start, slash - start));
      start = slash + 1;
    }
    return out;
  }

  static bool matches(const Route& route, const Segments& segments, bool& valid_params) {
    if (route.segments.size() != segments.count) return false;
    for (std::size_t i = 0; i < segments.count; ++i) {
      if (route.kinds[i] == Segment::kLiteral) {
        if (route.segments[i] != segments[i]) return false;
        continue;
      }
      if (segments[i].empty()) return false;
      if (!isValidParameter(route.kinds[i], segments[i])) valid_params = false;
    }
    return true;
  }

  bool matchesAny(const Segments& segments) const {
    for (const auto& route : routes_) {
      bool valid = true;
      if (matches(route, segments, valid)) return true;
    }
    return false;
  }

  std::vector<Route> routes_;
};

}  // namespace feedback::gateway
