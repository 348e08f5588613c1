#pragma once
// What the clients of OpenAI-compatible servers share (the model server of insights, the
// speech server of transcriptions): the HTTP client's settings, the base URL's form, and the
// bearer token, which appears in no error or log.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "common/net/http_client.h"

namespace feedback::net {

// Plain http allowed (such servers often listen inside the cluster), the whole answer read
// up to `answer_limit` bytes, one deadline per call.
HttpClientSettings apiServerSettings(std::string ca_bundle, std::chrono::milliseconds timeout,
                                     std::size_t answer_limit);

// An http(s) URL with a host, as a server's base URL must be ("http://host:8000/v1").
bool isHttpUrl(std::string_view url);

// `base_url` without the slashes it may end with, so that paths can follow it.
std::string trimmedBaseUrl(std::string base_url);

// Adds "Authorization: Bearer <api_key>" unless the key is empty.
void addBearer(HttpRequest& request, const std::string& api_key);

}  // namespace feedback::net
