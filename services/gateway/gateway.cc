#include "services/gateway/gateway.h"

#include <chrono>

#include "common/core/ids.h"
#include "common/core/log.h"
#include "common/core/scopes.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/responses.h"

namespace feedback::gateway {
namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool carriesBody(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH";
}

}  // namespace

std::string_view bearerToken(std::string_view authorization) {
  authorization = trim(authorization);
  auto space = authorization.find(' ');
  if (space == std::string_view::npos) return {};
  if (!equalsIgnoreCase(authorization.substr(0, space), "Bearer")) return {};
  return trim(authorization.substr(space + 1));
}

bool isJsonMediaType(std::string_view content_type) {
  return equalsIgnoreCase(trim(content_type.substr(0, content_type.find(';'))), "application/json");
}

void Gateway::handle(HttpRequest request, Respond respond) {
  const auto started = std::chrono::steady_clock::now();
  auto ctx = std::make_shared<RequestContext>();
  ctx->request = std::move(request);
  ctx->request_id = requestIdFor(ctx->request);
  Respond finish = [this, ctx, started, respond = std::move(respond)](HttpResponse response) {
    if (!ctx->key_hash.empty() && !ctx->revokes_own_key && response.status != 401 &&
        revoked_.contains(ctx->key_hash)) {
      // The key was revoked while this request was being processed.
      response = errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id);
    }
    response.setHeader("X-Request-Id", ctx->request_id);
    metrics_.countResponse(response.status);
    if (response.status >= 500 || access_log_) {
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      auto fields = {log::Field("status", response.status),
                     log::Field("method", ctx->request.method),
                     log::Field("path", ctx->request.path()), log::Field("duration_ms", ms),
                     log::Field("request_id", ctx->request_id)};
      if (response.status >= 500) {
        log::warn("request_failed", fields);
      } else {
        log::info("request", fields);
      }
    }
    respond(std::move(response));
  };

  auto resolution = routes_.resolve(ctx->request.method, ctx->request.path());
  switch (resolution.outcome) {
    case Routes::Outcome::kNotFound:
      return finish(
          errorResponse(ApiError(ErrorCode::kNotFound, "No such resource."), ctx->request_id));
    case Routes::Outcome::kRedirect: {
      std::string location(ctx->request.path());
      location += '/';
      if (!ctx->request.query().empty()) {
        location += '?';
        location += ctx->request.query();
      }
      HttpResponse response = messageResponse("Moved Permanently: every path ends with '/'.");
      response.status = 301;
      response.setHeader("Location", std::move(location));
      return finish(std::move(response));
    }
    case Routes::Outcome::kMethodNotAllowed: {
      HttpResponse response =
          errorResponse(ApiError(ErrorCode::kMethodNotAllowed,
                                 "Method " + ctx->request.method + " is not allowed here."),
                        ctx->request_id);
      response.setHeader("Allow", resolution.allow);
      return finish(std::move(response));
    }
    case Routes::Outcome::kFound:
      break;
  }
  const Routes::Route& route = *resolution.route;
  ctx->params = std::move(resolution.params);

  std::string_view key = bearerToken(ctx->request.header("authorization"));
  if (key.empty()) {
    return finish(errorResponse(ApiError(ErrorCode::kAuthenticationRequired), ctx->request_id));
  }
  std::string prefetch_key = route.handler.prefetch ? route.handler.prefetch(ctx->params) : "";
  authenticator_.authenticate(
      key, std::move(prefetch_key), [this, ctx, &route, finish](AuthOutcome outcome) {
        switch (outcome.kind) {
          case AuthOutcome::Kind::kRejected:
            return finish(errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
          case AuthOutcome::Kind::kUnavailable:
            return finish(errorResponse(
                ApiError(ErrorCode::kServiceUnavailable, "Authentication is unavailable."),
                ctx->request_id));
          case AuthOutcome::Kind::kAccepted:
            break;
        }
        ctx->key_hash = std::move(outcome.key_hash);
        ctx->caller = std::move(outcome.caller);
        ctx->prefetched = std::move(outcome.prefetched);
        if (!route.scope.empty() && !scopes::holds(ctx->caller.scopes(), route.scope)) {
          return finish(errorResponse(
              ApiError(ErrorCode::kInsufficientScope,
                       "This operation needs an API key with scope '" + route.scope + "'."),
              ctx->request_id));
        }
        // A body is parsed on an I/O thread; without one the handler only starts asynchronous
        // work, which may as well begin here.
        if (ctx->request.body.empty()) return dispatch(ctx, route, finish);
        post_([this, ctx, &route, finish] { dispatch(ctx, route, finish); });
      });
}

void Gateway::dispatch(const ContextPtr& ctx, const Routes::Route& route, const Respond& respond) {
  try {
    if (carriesBody(ctx->request.method)) {
      bool has_type = ctx->request.hasHeader("content-type");
      if ((has_type || !ctx->request.body.empty()) &&
          !isJsonMediaType(ctx->request.header("content-type"))) {
        throw ApiError(ErrorCode::kUnsupportedMediaType);
      }
      ctx->body = parseJsonObject(ctx->request.body);
    }
    route.handler.run(ctx, respond);
  } catch (const ApiError& e) {
    respond(errorResponse(e, ctx->request_id));
  } catch (const std::exception& e) {
    log::error("handler_failed", {{"error", e.what()}, {"request_id", ctx->request_id}});
    respond(errorResponse(ApiError(ErrorCode::kInternalError), ctx->request_id));
  }
}

}  // namespace feedback::gateway
