#pragma once
// The route table: path patterns such as "/v1/links/{uuid}/" with one handler per method.
// Resolution decides 404, the trailing-slash 301, 405 and path parameters, before any I/O.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace feedback::gateway {

enum class Method { kGet, kPost, kPut, kPatch, kDelete, kOther };

Method parseMethod(std::string_view method);
std::string_view methodName(Method method);

template <class Handler>
class Router {
 public:
  struct Route {
    std::vector<std::string> segments;  // "{uuid}" matches one UUID segment
    Method method;
    std::string scope;  // needed scope; empty: public
    Handler handler;
  };

  enum class Outcome { kFound, kNotFound, kRedirect, kMethodNotAllowed };
  struct Resolution {
    Outcome outcome = Outcome::kNotFound;
    const Route* route = nullptr;
    std::vector<std::string> params;  // the "{uuid}" segments, in order
    std::string allow;                // for kMethodNotAllowed, e.g. "GET, POST"
  };

  // `pattern` must start and end with '/'.
  void add(Method method, std::string_view pattern, std::string scope, Handler handler) {
    routes_.push_back(Route{split(pattern), method, std::move(scope), std::move(handler)});
  }

  Resolution resolve(std::string_view method_name, std::string_view path) const {
    Resolution result;
    if (path.empty() || path.front() != '/') return result;
    if (path.back() != '/') {
      std::string with_slash(path);
      with_slash += '/';
      if (matchesAny(split(with_slash))) result.outcome = Outcome::kRedirect;
      return result;
    }
    const auto segments = split(path);
    Method method = parseMethod(method_name);
    bool path_known = false;
    bool uuid_invalid = false;
    for (const auto& route : routes_) {
      std::vector<std::string> params;
      bool valid_params = true;
      if (!matches(route.segments, segments, params, valid_params)) continue;
      path_known = true;
      if (!valid_params) {
        uuid_invalid = true;
        continue;
      }
      if (!result.allow.empty()) result.allow += ", ";
      result.allow += methodName(route.method);
      if (route.method == method && result.outcome != Outcome::kFound) {
        result.outcome = Outcome::kFound;
        result.route = &route;
        result.params = std::move(params);
      }
    }
    if (result.outcome == Outcome::kFound) return result;
    // A malformed UUID is an absent resource, not a wrong method.
    if (path_known && !uuid_invalid) result.outcome = Outcome::kMethodNotAllowed;
    return result;
  }

 private:
  static std::vector<std::string> split(std::string_view path) {
    std::vector<std::string> out;
    std::size_t start = 1;
    while (start <= path.size()) {
      auto slash = path.find('/', start);
      if (slash == std::string_view::npos) slash = path.size();
      out.emplace_back(path.substr(start, slash - start));
      start = slash + 1;
    }
    return out;  // a trailing '/' yields a final empty segment
  }

  static bool matches(const std::vector<std::string>& pattern,
                      const std::vector<std::string>& segments, std::vector<std::string>& params,
                      bool& valid_params);

  bool matchesAny(const std::vector<std::string>& segments) const {
    for (const auto& route : routes_) {
      std::vector<std::string> params;
      bool valid = true;
      if (matches(route.segments, segments, params, valid)) return true;
    }
    return false;
  }

  std::vector<Route> routes_;
};

bool isUuidSegment(std::string_view segment);

template <class Handler>
bool Router<Handler>::matches(const std::vector<std::string>& pattern,
                              const std::vector<std::string>& segments,
                              std::vector<std::string>& params, bool& valid_params) {
  if (pattern.size() != segments.size()) return false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == "{uuid}") {
      if (segments[i].empty()) return false;
      if (!isUuidSegment(segments[i])) valid_params = false;
      params.push_back(segments[i]);
    } else if (pattern[i] != segments[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace feedback::gateway
