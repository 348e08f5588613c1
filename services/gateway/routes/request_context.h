#pragma once
// What a route handler gets: the request, its id, path parameters, the authenticated caller
// and the parsed body.

#include <boost/json/object.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/redis/redis_client.h"
#include "feedback/common/v1/common.pb.h"
#include "services/gateway/http/message.h"
#include "services/gateway/http/router.h"

namespace feedback::gateway {

struct RequestContext {
  HttpRequest request;
  std::string request_id;
  std::vector<std::string> params;
  feedback::common::v1::Caller caller;
  boost::json::object body;
  // The answer for the route's prefetch key; nullopt when Redis did not answer.
  std::optional<RedisReply> prefetched;
  // SHA-256 hex of the request's API key.
  std::string key_hash;
  // Set when this request revoked its own key: it alone still gets its answer.
  bool revokes_own_key = false;
};

using ContextPtr = std::shared_ptr<RequestContext>;
// May throw ApiError before responding; the pipeline turns it into the error answer.
using RouteFunction = std::function<void(const ContextPtr&, Respond)>;
// A Redis key a route reads in the same round trip as the API-key lookup (empty: none).
using PrefetchKey = std::function<std::string(const std::vector<std::string>& params)>;

struct RouteHandler {
  template <class F>
  RouteHandler(F run_function, PrefetchKey prefetch_key = {})  // NOLINT: lambdas convert
      : run(std::move(run_function)), prefetch(std::move(prefetch_key)) {}
  RouteFunction run;
  PrefetchKey prefetch;
};

using Routes = Router<RouteHandler>;

}  // namespace feedback::gateway
