#include "common/api/response_json.h"

#include "common/core/time.h"

namespace feedback::api {

namespace rv1 = feedback::responses::v1;

namespace {

// Dynamic probing's part of an answer (docs/api.md "AI insights and summaries").
void writeProbing(JsonWriter& json, const rv1::Answer& a) {
  json.key("follow_up");
  if (a.has_follow_up()) {
    json.string(a.follow_up());
  } else {
    json.null();
  }
  json.key("follow_ups").beginArray();
  for (const auto& f : a.follow_ups()) {
    json.beginObject()
        .field("prompt", f.prompt())
        .field("value", f.value())
        .field("date_created", formatTimestamp(f.date_created_micros()))
        .endObject();
  }
  json.endArray();
}

}  // namespace

void writeAnswer(JsonWriter& json, const rv1::Answer& a) {
  json.beginObject()
      .field("uuid", a.uuid())
      .field("question_uuid", a.question_uuid())
      .field("field_key", a.field_key())
      .field("response_type", a.response_type())
      .field("question_text", a.question_text());
  json.key("value");
  if (a.value_json().empty()) {
    json.null();
  } else {
    json.raw(a.value_json());
  }
  json.key("audio_url");
  if (a.has_audio_url()) {
    json.string(a.audio_url());
  } else {
    json.null();
  }
  json.key("transcription");
  if (a.has_transcription()) {
    json.string(a.transcription());
  } else {
    json.null();
  }
  json.key("duration");
  if (a.has_duration()) {
    json.number(a.duration());
  } else {
    json.null();
  }
  json.key("ai_insights").raw(a.ai_insights_json().empty() ? "{}" : a.ai_insights_json());
  if (a.has_rating_details()) {
    const auto& r = a.rating_details();
    json.key("rating_details")
        .beginObject()
        .field("value", r.value())
        .field("max_value", r.max_value())
        .field("scale_type", r.scale_type())
        .endObject();
  }
  if (a.has_selected_card()) {
    const auto& c = a.selected_card();
    json.key("selected_card")
        .beginObject()
        .field("card_id", c.card_id())
        .field("label", c.label())
        .field("media_url", c.media_url())
        .field("media_type", c.media_type())
        .endObject();
  }
  if (a.probed()) writeProbing(json, a);
  json.endObject();
}

void writeResponse(JsonWriter& json, const rv1::Response& r) {
  json.beginObject()
      .field("uuid", r.uuid())
      .field("session_id", r.session_id())
      .field("link_uuid", r.link_uuid())
      .field("status", r.status())
      .key("respondent_email");
  if (r.has_respondent_email()) {
    json.string(r.respondent_email());
  } else {
    json.null();
  }
  json.field("started_at", formatTimestamp(r.started_at_micros())).key("submitted_at");
  if (r.submitted_at_micros() != 0) {
    json.string(formatTimestamp(r.submitted_at_micros()));
  } else {
    json.null();
  }
  json.key("answers").raw(r.answers_json().empty() ? "[]" : r.answers_json());
  json.endObject();
}

std::string renderAnswer(const rv1::Answer& answer) {
  std::string body;
  JsonWriter json(body);
  writeAnswer(json, answer);
  return body;
}

std::string renderResponse(const rv1::Response& response) {
  std::string body;
  body.reserve(512 + response.answers_json().size());
  JsonWriter json(body);
  writeResponse(json, response);
  return body;
}

}  // namespace feedback::api
