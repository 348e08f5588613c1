#pragma once
// What a webhook is allowed to be and how its deliveries are signed, stated once: the events,
// URL and secret rules and the Standard Webhooks signature (docs/api.md "Events and webhooks").
// The links service checks on_finished with them, the webhooks service its API's input, and the
// dispatcher signs with them.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace feedback::webhooks {

inline constexpr std::string_view kResponseStarted = "response.started";
inline constexpr std::string_view kResponseSubmitted = "response.submitted";
inline constexpr std::array<std::string_view, 2> kEventTypes = {kResponseStarted,
                                                                kResponseSubmitted};
bool isEventType(std::string_view type);

// A response completed in one call is one outbox row for both its events (the row's
// started_event_id, responses/007): the row is its response.submitted event, whose payload
// begins with the event's type (event_payload.h writes it first); response.started's payload is the
// same bytes with the first prefix below swapped for the second, which the dispatcher does as
// it fans the row out, and only for a webhook that wants that event (most want the other).
inline constexpr std::string_view kSubmittedPayloadPrefix = R"({"type":"response.submitted",)";
inline constexpr std::string_view kStartedPayloadPrefix = R"({"type":"response.started",)";

// The channel the responses outbox's trigger notifies when events are written (responses
// migration 002, checked against this by the responses tests) and the dispatchers LISTEN on.
inline constexpr std::string_view kOutboxChannel = "responses_outbox";

inline constexpr std::size_t kMaxUrlLength = 2048;
inline constexpr std::size_t kMaxSecretLength = 255;
inline constexpr std::string_view kSecretPrefix = "whsec_";

// Throws ApiError(kInvalidWebhookUrl), details under `field`, unless `url` is an absolute
// https:// URL with a host, of at most kMaxUrlLength characters, whose host is neither a
// private nor a loopback address in any spelling (net_address.h) nor a name that resolves to
// one, unless `allow_private`. A name that does not resolve now (or within 2 s) is accepted:
// DNS may be down, and the address is checked again at every connection.
void checkUrl(std::string_view url, bool allow_private, const std::string& field);

// Throws ApiError(kValidationError) unless `secret` has 1 to kMaxSecretLength characters.
void checkSecret(std::string_view secret, const std::string& field);

// "whsec_" + base64 of 32 random bytes.
std::string generateSecret();

// The HMAC key of a secret: the base64-decoded rest of a "whsec_" secret, else (no prefix,
// or no base64 after it) the secret's own bytes (docs/api.md "Events and webhooks").
std::string signingKey(std::string_view secret);

// The webhook-signature header: "v1," + base64 of HMAC-SHA256 over "{id}.{timestamp}.{body}".
std::string sign(std::string_view secret, std::string_view event_id, int64_t timestamp_seconds,
                 std::string_view body);

}  // namespace feedback::webhooks
