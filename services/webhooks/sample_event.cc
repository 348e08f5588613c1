#include "services/webhooks/sample_event.h"

#include "common/api/response_json.h"
#include "common/core/ids.h"
#include "common/core/json_writer.h"
#include "common/core/time.h"
#include "common/webhooks/event_payload.h"
#include "common/webhooks/webhook_rules.h"

namespace feedback::webhooks {
namespace {

namespace rv1 = feedback::responses::v1;

std::string sampleAnswers() {
  rv1::Answer rating;
  rating.set_uuid(newUuid());
  rating.set_question_uuid(newUuid());
  rating.set_field_key("nps");
  rating.set_response_type("rating");
  rating.set_question_text("How likely are you to recommend us to a friend?");
  rating.set_value_json("9");
  rating.set_ai_insights_json("{}");
  auto* details = rating.mutable_rating_details();
  details->set_value(9);
  details->set_max_value(10);
  details->set_scale_type("nps");

  rv1::Answer text;
  text.set_uuid(newUuid());
  text.set_question_uuid(newUuid());
  text.set_field_key("comment");
  text.set_response_type("text");
  text.set_question_text("What should we improve?");
  text.set_value_json("\"Checkout was quick, but please add a dark mode.\"");
  text.set_ai_insights_json(
      "{\"sentiment\":\"positive\",\"sentiment_score\":0.42,\"actionable\":true,"
      "\"key_topics\":[\"dark mode\",\"checkout\"],"
      "\"summary\":\"Checkout was quick; asks for a dark mode.\"}");

  rv1::Answer card;
  card.set_uuid(newUuid());
  card.set_question_uuid(newUuid());
  card.set_field_key("favourite_design");
  card.set_response_type("image_choice");
  card.set_question_text("Which design do you prefer?");
  card.set_value_json("\"b\"");
  card.set_ai_insights_json("{}");
  auto* selected = card.mutable_selected_card();
  selected->set_card_id("b");
  selected->set_label("Design B");
  selected->set_media_url("https://example.com/designs/b.png");
  selected->set_media_type("image");

  std::string out;
  JsonWriter json(out);
  json.beginArray();
  for (const auto* a : {&rating, &text, &card}) api::writeAnswer(json, *a);
  json.endArray();
  return out;
}

}  // namespace

QueuedEvent sampleEvent(const std::string& workspace_uuid, const std::string& link_uuid) {
  const int64_t now = nowMicros();
  rv1::Response response;
  response.set_uuid(newUuid());
  response.set_session_id(newUuid());
  response.set_link_uuid(link_uuid.empty() ? newUuid() : link_uuid);
  response.set_status("completed");
  response.set_respondent_email("respondent@example.com");
  response.set_started_at_micros(now - 95'000'000);
  response.set_submitted_at_micros(now);
  response.set_answers_json(sampleAnswers());

  QueuedEvent event;
  event.event_id = newUuid();
  event.type = std::string(kResponseSubmitted);
  event.link_uuid = link_uuid;
  event.test = true;
  std::string record;
  JsonWriter json(record);
  api::writeResponse(json, response);
  writeEventPayload(event.payload, kResponseSubmitted, now, workspace_uuid,
                    {response.link_uuid(), "Sample feedback link", "sample-feedback-link"}, record,
                    /*test=*/true);
  return event;
}

}  // namespace feedback::webhooks
