#pragma once
// The responses rules' test bench: the fakes (responses_fakes.h), a link with questions of
// several types, and calls as the gRPC adapter makes them.

#include <catch2/catch.hpp>

#include "tests/unit/services/responses/responses_fakes.h"

namespace responses_test {

struct Fixture {
  FakeStore store;
  FakeCounts publisher;
  responses::DirectResponseWriter writer{store, publisher};
  const responses::evaluation::LocalEvaluator evaluator;
  responses::ResponsesService service{publisher, evaluator};
  v1::IntakeLink link;

  Fixture() {
    link.set_workspace_uuid(kWorkspace);
    auto* l = link.mutable_link();
    l->set_uuid(kLink);
    l->set_name("Survey");
    l->set_slug("survey");
    l->set_status("active");
    l->set_version(1);
    *l->add_questions() = question("score", "rating", R"({"scale_type": "nps"})");
    *l->add_questions() = question(
        "why", "text", "{}", R"({"field": "score", "operator": "less_than", "value": 7})", true);
    *l->add_questions() = question("card", "image_choice",
                                   R"({"cards": [{"id": "c1", "label": "Cat",
                                       "media_url": "https://e.com/c.png", "media_type": "image"}]})");
    *l->add_questions() = question("twice", "calculated", R"({"formula": "score * 2"})");
  }

  // The link, to change: its version is raised, as the links service does with every change.
  feedback::links::v1::Link& change() {
    link.mutable_link()->set_version(link.link().version() + 1);
    return *link.mutable_link();
  }

  v1::StartResponseResponse start(std::optional<std::string> email = std::nullopt) {
    v1::StartResponseRequest r;
    *r.mutable_link() = link;
    if (email) r.set_respondent_email(*email);
    return stored(service.startResponse(r));
  }
  v1::SaveAnswerResponse save(const v1::StartResponseResponse& s, const char* key,
                              const char* value_json, std::string token = {}) {
    v1::SaveAnswerRequest r;
    *r.mutable_link() = link;
    r.set_response_uuid(s.uuid());
    r.set_token(token.empty() ? s.token() : token);
    r.mutable_answer()->set_field_key(key);
    r.mutable_answer()->set_value_json(value_json);
    return service.saveAnswer(store, r);
  }
  v1::SubmitResponseResponse submit(const v1::StartResponseResponse& s,
                                    std::map<std::string, std::string> answers = {}) {
    v1::SubmitResponseRequest r;
    *r.mutable_link() = link;
    r.set_response_uuid(s.uuid());
    r.set_token(s.token());
    for (const auto& [k, v] : answers) {
      auto* a = r.add_answers();
      a->set_field_key(k);
      a->set_value_json(v);
    }
    return service.submitResponse(store, r);
  }
  // The stored response; checks that the answer is its record.
  v1::Response oneShot(std::map<std::string, std::string> answers) {
    v1::CompletedSubmission r;
    for (const auto& [k, v] : answers) {
      auto* a = r.add_answers();
      a->set_field_key(k);
      a->set_value_json(v);
    }
    const std::string record = stored(service.createCompletedResponse(link, r));
    const auto uuid = boost::json::parse(record).at("uuid").as_string();
    const auto& row = store.rows.at(std::string(uuid));
    CHECK(record == feedback::api::renderResponse(row.response));
    return row.response;
  }
  // What the service answers once the writer has stored what it accepted.
  template <class Answer>
  Answer stored(responses::Accepted<Answer> accepted) {
    writer.writeNow(std::move(accepted.write));
    return std::move(accepted.answer);
  }
};

template <class F>
std::pair<ErrorCode, std::set<std::string>> failure(F f) {
  try {
    f();
  } catch (const ApiError& e) {
    std::set<std::string> keys;
    for (const auto& [k, _] : e.details()) keys.insert(k);
    return {e.code(), keys};
  }
  return {ErrorCode::kInternalError, {}};
}

inline std::map<std::string, v1::Answer> byKey(const v1::Response& r) {
  std::map<std::string, v1::Answer> out;
  for (const auto& a : responses::parseAnswers(r.answers_json())) out[a.field_key()] = a;
  return out;
}

}  // namespace responses_test
