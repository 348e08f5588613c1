#include "services/responses/events.h"

#include "common/core/ids.h"
#include "common/webhooks/event_payload.h"

namespace feedback::responses {

OutboxEvent makeEvent(std::string_view type, int64_t at_micros, const IntakeForm& form,
                      std::string_view record) {
  OutboxEvent event;
  event.event_id = newUuid();
  event.type = std::string(type);
  const auto& link = form.link();
  webhooks::writeEventPayload(event.payload, type, at_micros, form.workspaceUuid(),
                              {link.uuid(), link.name(), link.slug()}, record);
  return event;
}

OutboxEvent makeCompletedEvents(int64_t at_micros, const IntakeForm& form,
                                std::string_view record) {
  OutboxEvent event = makeEvent(kResponseSubmitted, at_micros, form, record);
  event.started_event_id = newUuid();
  return event;
}

}  // namespace feedback::responses
