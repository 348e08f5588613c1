#include "services/responses/stored_answers.h"

#include <boost/json/parse.hpp>

#include "common/api/response_json.h"
#include "common/core/errors.h"
#include "common/core/json_text.h"
#include "common/core/json_writer.h"
#include "common/core/time.h"

namespace feedback::responses {
namespace {

namespace rv1 = feedback::responses::v1;

std::string textOf(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

void readAnswer(const boost::json::object& o, rv1::Answer& a) {
  a.set_uuid(textOf(o, "uuid"));
  a.set_question_uuid(textOf(o, "question_uuid"));
  a.set_field_key(textOf(o, "field_key"));
  a.set_response_type(textOf(o, "response_type"));
  a.set_question_text(textOf(o, "question_text"));
  if (const auto* v = o.if_contains("value"); v && !v->is_null()) a.set_value_json(jsonText(*v));
  if (const auto* v = o.if_contains("audio_url"); v && v->is_string()) {
    a.set_audio_url(std::string(v->get_string()));
  }
  if (const auto* v = o.if_contains("transcription"); v && v->is_string()) {
    a.set_transcription(std::string(v->get_string()));
  }
  if (const auto* v = o.if_contains("duration"); v && v->is_number()) {
    a.set_duration(v->to_number<double>());
  }
  const auto* insights = o.if_contains("ai_insights");
  a.set_ai_insights_json(insights && insights->is_object() ? jsonText(*insights) : "{}");
  if (const auto* v = o.if_contains("rating_details"); v && v->is_object()) {
    const auto& r = v->get_object();
    auto* out = a.mutable_rating_details();
    out->set_value(r.at("value").to_number<int64_t>());
    out->set_max_value(r.at("max_value").to_number<int64_t>());
    out->set_scale_type(textOf(r, "scale_type"));
  }
  if (const auto* v = o.if_contains("selected_card"); v && v->is_object()) {
    const auto& c = v->get_object();
    auto* out = a.mutable_selected_card();
    out->set_card_id(textOf(c, "card_id"));
    out->set_label(textOf(c, "label"));
    out->set_media_url(textOf(c, "media_url"));
    out->set_media_type(textOf(c, "media_type"));
  }
  // Answers to probing questions carry follow_up (null or a prompt) and follow_ups.
  if (const auto* follow_ups = o.if_contains("follow_ups"); follow_ups && follow_ups->is_array()) {
    a.set_probed(true);
    if (const auto* v = o.if_contains("follow_up"); v && v->is_string()) {
      a.set_follow_up(std::string(v->get_string()));
    }
    for (const auto& item : follow_ups->get_array()) {
      if (!item.is_object()) continue;
      const auto& f = item.get_object();
      auto* out = a.add_follow_ups();
      out->set_prompt(textOf(f, "prompt"));
      out->set_value(textOf(f, "value"));
      if (auto at = parseTimestamp(textOf(f, "date_created"))) {
        out->set_date_created_micros(at->micros);
      }
    }
  }
}

}  // namespace

std::string answersJson(const std::vector<rv1::Answer>& answers) {
  std::string out;
  out.reserve(384 * answers.size() + 2);
  JsonWriter json(out);
  json.beginArray();
  for (const auto& a : answers) api::writeAnswer(json, a);
  json.endArray();
  return out;
}

std::vector<rv1::Answer> parseAnswers(std::string_view stored) {
  boost::system::error_code ec;
  auto document = boost::json::parse(stored, ec);
  if (ec || !document.is_array()) {
    throw ApiError(ErrorCode::kInternalError, "Stored answers of a response are unreadable.");
  }
  std::vector<rv1::Answer> answers;
  for (const auto& item : document.get_array()) {
    if (item.is_object()) readAnswer(item.get_object(), answers.emplace_back());
  }
  return answers;
}

}  // namespace feedback::responses
