// /v1/tokens/: API keys of the caller's workspace (tokens service).
#include "common/core/json_writer.h"
#include "common/core/scopes.h"
#include "common/core/time.h"
#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/json/listing.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace tv1 = feedback::tokens::v1;

void writeToken(JsonWriter& json, const tv1::Token& token, const std::string* key) {
  json.beginObject()
      .field("uuid", token.uuid())
      .field("name", token.name())
      .field("prefix", token.prefix())
      .key("scopes")
      .beginArray();
  for (const auto& s : token.scopes()) json.string(s);
  json.endArray().field("date_created", formatTimestamp(token.date_created_micros()));
  json.key("last_used_at");
  if (token.last_used_at_micros() == 0) {
    json.null();
  } else {
    json.string(formatTimestamp(token.last_used_at_micros()));
  }
  if (key) json.field("key", *key);
  json.endObject();
}

}  // namespace

void addTokensRoutes(Routes& routes, const Backends& backends, RevokedKeys& revoked) {
  std::shared_ptr<tv1::TokensService::Stub> tokens = tv1::TokensService::NewStub(backends.tokens);
  routes.add(Method::kGet, "/v1/tokens/",
             {RouteAttributes{.scope = scopes::kTokensRead, .rpcs = {"TokensService/ListTokens"}},
              [tokens](const ContextPtr& ctx, Respond respond) {
                tv1::ListTokensRequest request;
                *request.mutable_caller() = *ctx->caller;
                *request.mutable_page() = pageRequestFrom(ctx->request);
                auto page = request.page();
                callBackend<tv1::ListTokensResponse>(
                    ctx, std::move(respond), std::move(request),
                    [tokens](auto* c, auto* q, auto* r, auto done) {
                      tokens->async()->ListTokens(c, q, r, std::move(done));
                    },
                    [ctx, page](const tv1::ListTokensResponse& response) {
                      std::string results;
                      JsonWriter json(results);
                      json.beginArray();
                      for (const auto& t : response.tokens()) writeToken(json, t, nullptr);
                      json.endArray();
                      return jsonResponse(200,
                                          renderEnvelope(*ctx, page, response.count(), results));
                    });
              }});

  routes.add(Method::kPost, "/v1/tokens/",
             {RouteAttributes{.scope = scopes::kTokensWrite,
                              .idempotent = true,
                              .rpcs = {"TokensService/CreateToken"}},
              [tokens](const ContextPtr& ctx, Respond respond) {
                JsonFields body(ctx->body, "", {"name", "scopes"});
                tv1::CreateTokenRequest request;
                *request.mutable_caller() = *ctx->caller;
                if (auto name = body.text("name")) request.set_name(*name);
                if (const auto* scopes = body.array("scopes")) {
                  request.set_has_scopes(true);
                  for (std::size_t i = 0; i < scopes->size(); ++i) {
                    const auto& s = (*scopes)[i];
                    if (!s.is_string()) {
                      std::string path = "scopes[" + std::to_string(i) + "]";
                      throw ApiError(ErrorCode::kValidationError, "Scopes must be strings.",
                                     {{path, "must be a string"}});
                    }
                    request.add_scopes(std::string(s.as_string()));
                  }
                }
                callBackend<tv1::CreateTokenResponse>(
                    ctx, std::move(respond), std::move(request),
                    [tokens](auto* c, auto* q, auto* r, auto done) {
                      tokens->async()->CreateToken(c, q, r, std::move(done));
                    },
                    [](const tv1::CreateTokenResponse& response) {
                      std::string body;
                      JsonWriter json(body);
                      writeToken(json, response.token(), &response.key());
                      return jsonResponse(201, std::move(body));
                    });
              }});

  routes.add(Method::kDelete, "/v1/tokens/{uuid}/",
             {RouteAttributes{.scope = scopes::kTokensWrite, .rpcs = {"TokensService/RevokeToken"}},
              [tokens, &revoked](const ContextPtr& ctx, Respond respond) {
                tv1::RevokeTokenRequest request;
                *request.mutable_caller() = *ctx->caller;
                request.set_token_uuid(ctx->params.at(0));
                callBackend<tv1::RevokeTokenResponse>(
                    ctx, std::move(respond), std::move(request),
                    [tokens](auto* c, auto* q, auto* r, auto done) {
                      tokens->async()->RevokeToken(c, q, r, std::move(done));
                    },
                    [&revoked, ctx](const tv1::RevokeTokenResponse& r) {
                      revoked.add(r.key_hash());
                      ctx->key.revokes_own_key = r.key_hash() == ctx->key.hash;
                      return messageResponse("Token revoked.");
                    });
              }});
}

}  // namespace feedback::gateway
