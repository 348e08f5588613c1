#pragma once
// What a route handler gets: the request, its id, path parameters, the authenticated caller
// and the parsed body.

#include <boost/json/object.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

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
};

using ContextPtr = std::shared_ptr<RequestContext>;
// May throw ApiError before responding; the pipeline turns it into the error answer.
using RouteHandler = std::function<void(const ContextPtr&, Respond)>;
using Routes = Router<RouteHandler>;

}  // namespace feedback::gateway
