#pragma once
// The payload of every webhook event, written in one place: the responses service writes the
// real ones into its outbox, the webhooks service its test events (docs/api.md "Events and
// webhooks"). The type is written first: a one-shot outbox row's other event is made by
// swapping that prefix (kSubmittedPayloadPrefix, webhook_rules.h).

#include <cstdint>
#include <string>
#include <string_view>

#include "common/core/json_writer.h"
#include "common/core/time.h"

namespace feedback::webhooks {

struct EventLink {
  std::string_view uuid;
  std::string_view name;
  std::string_view slug;
};

// {"type", "timestamp", ["test": true,] "data": {"workspace_uuid", "link": {uuid, name, slug},
// "response"}} appended to `out`; `response_json` is the response as common/api/response_json.h
// renders it.
inline void writeEventPayload(std::string& out, std::string_view type, int64_t at_micros,
                              std::string_view workspace_uuid, const EventLink& link,
                              std::string_view response_json, bool test = false) {
  JsonWriter json(out);
  json.beginObject().field("type", type).field("timestamp", formatTimestamp(at_micros));
  if (test) json.field("test", true);
  json.key("data")
      .beginObject()
      .field("workspace_uuid", workspace_uuid)
      .key("link")
      .beginObject()
      .field("uuid", link.uuid)
      .field("name", link.name)
      .field("slug", link.slug)
      .endObject()
      .key("response")
      .raw(response_json)
      .endObject()
      .endObject();
}

}  // namespace feedback::webhooks
