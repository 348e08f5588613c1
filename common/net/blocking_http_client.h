#pragma once
// HttpClient for callers that block (job workers asking a model or speech server): post()
// waits for the answer, on a thread of the caller's, while the exchange runs on an io_context
// and thread of this object's own. One deadline per call: the client's timeout, plus a margin
// for its thread.

#include <memory>

#include "common/net/http_client.h"

namespace feedback::net {

class BlockingHttpClient {
 public:
  // Throws as HttpClient's constructor does.
  explicit BlockingHttpClient(HttpClientSettings settings);
  // Calls under way return "stopped".
  ~BlockingHttpClient();
  BlockingHttpClient(const BlockingHttpClient&) = delete;
  BlockingHttpClient& operator=(const BlockingHttpClient&) = delete;

  // The answer, or status 0 with an error ("timeout", "stopped", or HttpClient's reasons).
  // May be called from any number of threads at once.
  HttpResult post(HttpRequest request) const;

 private:
  struct Loop;
  std::unique_ptr<Loop> loop_;
};

}  // namespace feedback::net
