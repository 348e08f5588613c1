#include "common/net/api_server.h"

#include <boost/url/parse.hpp>

namespace feedback::net {

HttpClientSettings apiServerSettings(std::string ca_bundle, std::chrono::milliseconds timeout,
                                     std::size_t answer_limit) {
  HttpClientSettings http;
  http.ca_bundle = std::move(ca_bundle);
  http.allow_plain_http = true;
  http.timeout = timeout;
  http.excerpt_limit = answer_limit;
  http.body_limit = answer_limit;
  http.user_agent = "feedback-responses/1";
  return http;
}

bool isHttpUrl(std::string_view url) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  return parsed && (parsed->scheme() == "http" || parsed->scheme() == "https") &&
         !parsed->host().empty();
}

std::string trimmedBaseUrl(std::string base_url) {
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  return base_url;
}

void addBearer(HttpRequest& request, const std::string& api_key) {
  if (!api_key.empty()) request.headers.emplace_back("Authorization", "Bearer " + api_key);
}

}  // namespace feedback::net
