#include "services/responses/events.h"

#include "common/core/ids.h"
#include "common/core/json_writer.h"
#include "common/core/time.h"

namespace feedback::responses {

OutboxEvent makeEvent(std::string_view type, int64_t at_micros, const IntakeForm& form,
                      std::string_view record) {
  OutboxEvent event;
  event.event_id = newUuid();
  event.type = std::string(type);
  const auto& link = form.link();
  JsonWriter json(event.payload);
  json.beginObject()
      .field("type", type)
      .field("timestamp", formatTimestamp(at_micros))
      .key("data")
      .beginObject()
      .field("workspace_uuid", form.workspaceUuid())
      .key("link")
      .beginObject()
      .field("uuid", link.uuid())
      .field("name", link.name())
      .field("slug", link.slug())
      .endObject()
      .key("response")
      .raw(record)
      .endObject()
      .endObject();
  return event;
}

OutboxEvent makeCompletedEvents(int64_t at_micros, const IntakeForm& form,
                                std::string_view record) {
  OutboxEvent event = makeEvent(kResponseSubmitted, at_micros, form, record);
  event.started_event_id = newUuid();
  return event;
}

}  // namespace feedback::responses
