#pragma once
// The event POST /workspaces/{ws}/webhooks/{uuid}/test/ sends: a response.submitted event
// shaped exactly like a real one (docs/api.md "Events and webhooks"), with sample answers of
// the kinds that carry extra fields (rating_details, selected_card), marked "test": true.

#include <string>

#include "services/webhooks/webhooks_store.h"

namespace feedback::webhooks {

// `link_uuid`: the webhook's link, or empty for a workspace-wide webhook (a sample link then).
QueuedEvent sampleEvent(const std::string& workspace_uuid, const std::string& link_uuid);

}  // namespace feedback::webhooks
