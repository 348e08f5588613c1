#pragma once
// A route and what its handler gets: the request, its id, path parameters, the caller (an API
// key's workspace and scopes, or for public routes the workspace named by the Host header),
// the parsed body and the answers of the Redis keys it asked to read.

#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/text.h"
#include "common/core/trace.h"
#include "common/redis/redis_client.h"
#include "feedback/common/v1/common.pb.h"
#include "services/gateway/auth/caller_records.h"
#include "services/gateway/auth/revoked_keys.h"
#include "services/gateway/http/message.h"
#include "services/gateway/http/router.h"
#include "services/gateway/pipeline/redis_round_trip.h"
#include "services/gateway/ratelimit/sliding_window.h"

namespace feedback::gateway {

struct RouteEntry;

// The caller of a request nobody has established yet: an empty one. It owns nothing (an
// aliasing pointer to a static), so every request copying it in takes no count shared by all
// the loops' cores.
inline CallerPtr noCaller() {
  static const feedback::common::v1::Caller kNone;
  return CallerPtr(std::shared_ptr<const void>(), &kNone);
}

// What CredentialsStage learns of a request's API key (keyed routes).
struct KeyCheck {
  // SHA-256 hex of the key; empty on public routes.
  std::string hash;
  // The revocation channel's state when the key was checked (RevokedKeys::mayHaveMissed).
  FeedMark revocation_mark;
  // Set by the handler that revokes the request's own key: it alone still gets its answer.
  bool revokes_own_key = false;
};

// The rate limit's part of a request: written by the RateLimiter while the round trip is
// assembled, read and decided by RateLimitStage.
struct RateCheck {
  // The admission's slot in the round trip, when one was sent (on keyed routes it is also the
  // key's lookup: the script reads the key's record), and what it answered.
  std::optional<RedisRoundTrip::Slot> admission;
  AdmissionAnswer answer;
  // Public routes: whom the admission counts (RateLimiter::Subject::name).
  std::string subject;
  // A decision made without an admission: from what Redis granted or refused before
  // (local_grants.h), or in the replica's own window (RateWindow::kReplica).
  std::optional<RateDecision> decided;
  // The decision applied: its headers go on every answer.
  std::optional<RateDecision> decision;
};

// An Idempotency-Key this request holds (IdempotencyStage): the Redis key and the value
// claiming it (which carries the request's fingerprint), under which its answer is stored on
// the way out, and the secret that seals that answer (an HMAC of the key and its scope).
struct IdempotencyHold {
  std::string record;
  std::string claim;
  std::string secret;
};

struct RequestContext {
  HttpRequest request;
  std::string request_id;
  // W3C trace context: this gateway's span of the client's trace (or of a new one), passed to
  // the services as gRPC metadata and written into the request's log lines.
  trace::TraceParent trace;
  std::chrono::steady_clock::time_point started;
  // Deadline of every backend call made for this request.
  std::chrono::system_clock::time_point deadline;
  const RouteEntry* route = nullptr;
  std::vector<std::string> params;
  // Public routes: only the workspace is set. Never null; shared with the cache of key
  // records (auth/caller_records.h), so never changed: a stage that knows more sets another.
  CallerPtr caller = noCaller();
  boost::json::object body;
  // The request's one Redis round trip: the route's prefetch first (the answer to its i-th
  // command is redis.routeRead(i)), then the stages' commands.
  RedisRoundTrip redis;
  // Each stage's own state. KeyCheck: CredentialsStage (and the handler that revokes its own
  // key). RateCheck: the RateLimiter as the trip is assembled and answered, and RateLimitStage.
  // IdempotencyHold: IdempotencyStage.
  KeyCheck key;
  RateCheck rate;
  IdempotencyHold idempotency;
};

using ContextPtr = std::shared_ptr<RequestContext>;

enum class Access {
  kApiKey,  // Authorization: Bearer <API key>, holding the route's scope
  kPublic,  // no key; the workspace comes from the Host header (the public intake)
  kAsset,   // the intake page's scripts and styles: the same for every host, not counted
};

// The window a public route's calls count in (docs/api.md "Plans and rate limits").
enum class RateWindow {
  kShared,   // every replica's, in Redis: what the respondent's writes count in
  kReplica,  // this replica's own (local_rate_limiter.h): views of a page the gateway keeps,
             // which cost a replica nothing worth sharing, where a window written to Redis and
             // expired again per respondent was half of a view's cost
};

// What a route declares about itself; the pipeline's stages read these, not the path. Routes
// name what applies with designated initializers, e.g.
//   RouteAttributes{.scope = scopes::kLinksWrite, .idempotent = true,
//                   .rpcs = {"LinksService/CreateLink"}}
struct RouteAttributes {
  Access access = Access::kApiKey;
  // With kApiKey: the scope the key must hold.
  std::string_view scope = {};
  // With kPublic: the window its calls count in.
  RateWindow rate_window = RateWindow::kShared;
  // A POST that honours Idempotency-Key (docs/api.md "Idempotency").
  bool idempotent = false;
  // With kPublic, a call on a started response: without an X-Response-Token header it is
  // answered 404 before anything else about it is judged (docs/api.md "Public intake").
  bool response_token = false;
  // Non-zero: the body is the route's raw bytes (an upload), not JSON, and may be this long
  // (the server reads bodies over the JSON limit only for such routes).
  std::size_t raw_body_limit = 0;
  // Its answers hold respondents' files and recordings: their addresses are signed on the
  // way out (MediaLinksStage).
  bool signs_media = false;
  // Non-zero: its call to a service may take this long (a respondent's erasure), and its
  // deadline (RouteStage) and Idempotency-Key claim (IdempotencyStage) last this long instead of
  // BACKEND_TIMEOUT_MS's.
  std::chrono::seconds longest_call{0};
  // The RPCs its handler makes ("Service/Method"), the one that does its work first: what
  // docs/code-map.md follows from the route to the service method and its SQL.
  std::vector<std::string_view> rpcs = {};
};

// Whether `token` can be a response token (X-Response-Token, or the live socket's ?token=): one
// that is no UTF-8 text is no response's, and could not be sent on in a protobuf string.
inline bool isUsableResponseToken(std::string_view token) {
  return !token.empty() && isValidUtf8(token);
}

// May throw ApiError before responding; the pipeline turns it into the error answer.
using RouteFunction = std::function<void(const ContextPtr&, Respond)>;
// Redis reads (commands such as {"GET", key}) a route makes in the request's one round trip
// (with the API key on keyed routes). Runs once routing and, on public routes, the workspace
// are known.
using Prefetch = std::function<std::vector<RedisCommand>(const RequestContext&)>;

struct RouteEntry {
  RouteAttributes attributes;
  RouteFunction run;
  Prefetch prefetch = {};
};

using Routes = Router<RouteEntry>;

}  // namespace feedback::gateway
