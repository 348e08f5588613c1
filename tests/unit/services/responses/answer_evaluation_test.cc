// AI insights on saved and submitted answers, and dynamic probing through the responses rules
// (docs/api.md "AI insights and summaries"), on the in-memory store.
#include "services/responses/answer_evaluation.h"

#include "services/responses/pg_responses_store.h"

#include "tests/unit/services/responses/responses_fixture.h"

using namespace responses_test;

namespace {

// The fixture's link with a probing text question "story" and an evaluated voice question
// "said" whose evaluation is turned off.
void addProbingQuestions(Fixture& f, const char* evaluator_config) {
  auto& link = f.change();
  auto story = question("story", "text");
  story.set_enable_dynamic_probing(true);
  story.set_evaluator_config_json(evaluator_config);
  *link.add_questions() = story;
  *link.add_questions() = question("said", "voice", R"({"enable_ai_evaluation": false})");
}

v1::AnswerFollowUpResponse followUp(Fixture& f, const v1::StartResponseResponse& s, const char* key,
                                    const char* value_json) {
  v1::AnswerFollowUpRequest r;
  *r.mutable_link() = f.link;
  r.set_response_uuid(s.uuid());
  r.set_token(s.token());
  r.mutable_answer()->set_field_key(key);
  r.mutable_answer()->set_value_json(value_json);
  return f.service.answerFollowUp(f.store, r);
}

boost::json::object json(const v1::Answer& a) {
  return boost::json::parse(feedback::api::renderAnswer(a)).as_object();
}

}  // namespace

TEST_CASE("evaluation: text answers get insights when saved and when submitted", "[responses]") {
  Fixture f;
  addProbingQuestions(f, "{}");
  auto s = f.start();
  auto saved = f.save(s, "why", R"("The checkout crashed twice. Please fix it!")").answer();
  auto insights = boost::json::parse(saved.ai_insights_json()).as_object();
  CHECK(insights.at("sentiment").as_string() == "positive");  // VADER: "Please fix it!"
  CHECK(insights.at("actionable").as_bool());
  CHECK(insights.size() == 5);
  // Not evaluated: other types, and voice with enable_ai_evaluation false.
  CHECK(f.save(s, "score", "3").answer().ai_insights_json() == "{}");
  CHECK(f.save(s, "said", R"("I hate it")").answer().ai_insights_json() == "{}");
  const auto record = f.submit(s).response();
  const auto answers = byKey(record);
  CHECK(answers.at("why").ai_insights_json() == saved.ai_insights_json());
  CHECK(answers.at("score").ai_insights_json() == "{}");
  // A one-call submission is evaluated too.
  const auto one = byKey(f.oneShot({{"score", "2"}, {"why", R"("Awful, slow and rude.")"}}));
  CHECK(boost::json::parse(one.at("why").ai_insights_json()).at("sentiment").as_string() ==
        "negative");
}

TEST_CASE("probing: follow-ups while the answer is unclear, up to max_follow_ups", "[responses]") {
  Fixture f;
  addProbingQuestions(f, R"({"clarity_threshold": 0.9, "max_follow_ups": 2})");
  auto s = f.start();
  auto a = f.save(s, "story", R"("ok")").answer();
  REQUIRE(a.has_follow_up());
  const std::string first = a.follow_up();
  CHECK(json(a).at("follow_ups").as_array().empty());
  a = followUp(f, s, "story", R"("not sure")").answer();
  REQUIRE(a.follow_ups_size() == 1);
  CHECK(a.follow_ups(0).prompt() == first);
  CHECK(a.follow_ups(0).value() == "not sure");
  CHECK(a.follow_ups(0).date_created_micros() > 0);
  REQUIRE(a.has_follow_up());
  a = followUp(f, s, "story", R"("dunno")").answer();
  CHECK(a.follow_ups_size() == 2);
  CHECK_FALSE(a.has_follow_up());  // max_follow_ups reached
  CHECK(json(a).at("follow_up").is_null());
  CHECK(failure([&] { followUp(f, s, "story", R"("more")"); }).first ==
        ErrorCode::kNoFollowUpPending);
  // The follow-ups are stored with the answer and count for its text.
  auto stored = byKey(f.store.rows.at(s.uuid()).response);
  CHECK(stored.at("story").follow_ups_size() == 2);
  CHECK(responses::answerText(stored.at("story")) == "ok\nnot sure\ndunno");
  CHECK(responses::searchTextOf(f.store.rows.at(s.uuid())).find("dunno") != std::string::npos);
  // Submitting keeps them; nothing is pending on a completed response.
  const auto done = byKey(f.submit(s).response());
  CHECK(done.at("story").follow_ups_size() == 2);
  CHECK_FALSE(done.at("story").has_follow_up());
  CHECK(json(done.at("story")).contains("follow_ups"));
}

TEST_CASE("probing: a clear answer asks nothing; a new answer starts afresh", "[responses]") {
  Fixture f;
  addProbingQuestions(f, R"({"clarity_threshold": 0.6, "max_follow_ups": 1})");
  auto s = f.start();
  auto a =
      f.save(
           s, "story",
           R"("The invoice export took 40 minutes yesterday and failed twice with a timeout error, so finance could not close the month.")")
          .answer();
  CHECK_FALSE(a.has_follow_up());
  CHECK(json(a).at("follow_up").is_null());
  CHECK(failure([&] { followUp(f, s, "story", R"("x")"); }).first == ErrorCode::kNoFollowUpPending);
  a = f.save(s, "story", R"("meh")").answer();
  REQUIRE(a.has_follow_up());
  a = followUp(f, s, "story", R"("bad")").answer();
  CHECK_FALSE(a.has_follow_up());  // max_follow_ups 1
  // The same value again keeps its follow-ups; another value drops them.
  CHECK(f.save(s, "story", R"("meh")").answer().follow_ups_size() == 1);
  CHECK(f.save(s, "story", R"("meh!")").answer().follow_ups_size() == 0);
}

TEST_CASE("probing: max_follow_ups 0 never asks; other questions have no probing fields",
          "[responses]") {
  Fixture f;
  addProbingQuestions(f, R"({"clarity_threshold": 1, "max_follow_ups": 0})");
  auto s = f.start();
  auto a = f.save(s, "story", R"("ok")").answer();
  CHECK_FALSE(a.has_follow_up());
  CHECK(json(a).contains("follow_up"));
  CHECK_FALSE(json(f.save(s, "why", R"("ok")").answer()).contains("follow_up"));
  CHECK(failure([&] { followUp(f, s, "why", R"("x")"); }).first == ErrorCode::kNoFollowUpPending);
}

TEST_CASE("probing: follow-up answers need the token, an open response and text", "[responses]") {
  Fixture f;
  addProbingQuestions(f, R"({"clarity_threshold": 0.9})");
  auto s = f.start();
  REQUIRE(f.save(s, "story", R"("ok")").answer().has_follow_up());
  auto wrong = s;
  wrong.set_token("nope");
  CHECK(failure([&] { followUp(f, wrong, "story", R"("x")"); }).first == ErrorCode::kNotFound);
  CHECK(failure([&] { followUp(f, s, "nosuch", R"("x")"); }).first == ErrorCode::kNotFound);
  auto bad = failure([&] { followUp(f, s, "story", "42"); });
  CHECK(bad.first == ErrorCode::kInvalidAnswer);
  CHECK(bad.second == std::set<std::string>{"story"});
  CHECK(failure([&] { followUp(f, s, "story", R"("   ")"); }).first == ErrorCode::kInvalidAnswer);
  CHECK(failure([&] { followUp(f, s, "story", ""); }).first == ErrorCode::kInvalidAnswer);
  f.submit(s);
  CHECK(failure([&] { followUp(f, s, "story", R"("late")"); }).first ==
        ErrorCode::kResponseAlreadySubmitted);
}

TEST_CASE("queued insights: jobs for a model server, kept for the same text", "[responses]") {
  FakeStore store;
  FakeCounts counts;
  const responses::evaluation::LocalEvaluator evaluator;
  responses::ResponsesService service(counts, evaluator, responses::InsightsMode::kQueued);
  Fixture f;  // for its link and helpers; calls go to `service`
  addProbingQuestions(f, "{}");
  v1::StartResponseRequest start;
  *start.mutable_link() = f.link;
  auto accepted = service.startResponse(start);
  responses::DirectResponseWriter(store, counts).writeNow(std::move(accepted.write));
  const auto& s = accepted.answer;
  auto save = [&](const char* key, const char* value) {
    v1::SaveAnswerRequest r;
    *r.mutable_link() = f.link;
    r.set_response_uuid(s.uuid());
    r.set_token(s.token());
    r.mutable_answer()->set_field_key(key);
    r.mutable_answer()->set_value_json(value);
    return service.saveAnswer(store, r).answer();
  };
  auto jobs = [&] {
    // The fake store keeps what the last write queued with the response.
    return store.rows.at(s.uuid()).insight_jobs;
  };
  auto a = save("why", R"("The export fails.")");
  CHECK(a.ai_insights_json() == "{}");
  REQUIRE(jobs().size() == 1);
  CHECK(jobs()[0].answer_uuid == a.uuid());
  CHECK(jobs()[0].text == "The export fails.");
  CHECK(jobs()[0].question == "Prompt of why");
  CHECK(jobs()[0].custom_fields_json == "[]");
  CHECK(save("score", "3").ai_insights_json() == "{}");
  CHECK(jobs().empty());  // a rating is not evaluated

  // The insights arrive; the answer keeps them through a submit of the same text.
  const std::string insights =
      R"({"sentiment":"negative","sentiment_score":-0.4,"actionable":true,"key_topics":[],"summary":"x"})";
  CHECK(
      service.applyInsights(store, kWorkspace, s.uuid(), a.uuid(), "The export fails.", insights));
  v1::SubmitResponseRequest submit;
  *submit.mutable_link() = f.link;
  submit.set_response_uuid(s.uuid());
  submit.set_token(s.token());
  const auto done = byKey(service.submitResponse(store, submit).response());
  CHECK(done.at("why").ai_insights_json() == insights);
  CHECK(jobs().empty());
  // A completed response's insights are counted like a submission (pages of it end).
  const auto settled_before = counts.published.size();
  CHECK(service.applyInsights(store, kWorkspace, s.uuid(), a.uuid(), "The export fails.", "{}") ==
        true);
  CHECK(counts.published.size() == settled_before + 1);
}

TEST_CASE("queued insights: a job for text the answer no longer says changes nothing",
          "[responses]") {
  Fixture f;
  addProbingQuestions(f, "{}");
  auto s = f.start();
  auto a = f.save(s, "why", R"("first")").answer();
  const std::string before = f.store.rows.at(s.uuid()).response.answers_json();
  CHECK_FALSE(f.service.applyInsights(f.store, kWorkspace, s.uuid(), a.uuid(), "older text", "{}"));
  CHECK(f.store.rows.at(s.uuid()).response.answers_json() == before);
  CHECK_FALSE(f.service.applyInsights(f.store, kWorkspace, s.uuid(),
                                      "00000000-0000-4000-8000-000000000000", "first", "{}"));
  CHECK_FALSE(f.service.applyInsights(f.store, "6f1c1d4e-0a5b-4c1e-9d7a-000000000000", s.uuid(),
                                      a.uuid(), "first", "{}"));
}

TEST_CASE("probing: a value changed at the submit drops its follow-ups", "[responses]") {
  Fixture f;
  addProbingQuestions(f, R"({"clarity_threshold": 0.9})");
  auto s = f.start();
  REQUIRE(f.save(s, "story", R"("ok")").answer().has_follow_up());
  followUp(f, s, "story", R"("more about it")");
  const auto done = byKey(f.submit(s, {{"story", R"("A different answer entirely.")"}}).response());
  CHECK(done.at("story").follow_ups_size() == 0);
  CHECK(responses::answerText(done.at("story")) == "A different answer entirely.");
}

TEST_CASE("probing turned off: nothing pending, follow-ups kept and shown", "[responses]") {
  Fixture f;
  addProbingQuestions(f, R"({"clarity_threshold": 0.9, "max_follow_ups": 5})");
  auto s = f.start();
  REQUIRE(f.save(s, "story", R"("ok")").answer().has_follow_up());
  followUp(f, s, "story", R"("first")");
  // The link's owner turns probing off for the question.
  auto& link = f.change();
  for (auto& q : *link.mutable_questions()) {
    if (q.field_key() == "story") q.set_enable_dynamic_probing(false);
  }
  auto again = f.save(s, "story", R"("ok")").answer();
  CHECK_FALSE(again.has_follow_up());
  CHECK(again.follow_ups_size() == 1);
  CHECK(json(again).contains("follow_ups"));
  CHECK(failure([&] { followUp(f, s, "story", R"("x")"); }).first == ErrorCode::kNoFollowUpPending);
  const auto done = byKey(f.submit(s).response());
  CHECK(done.at("story").follow_ups_size() == 1);
  CHECK(json(done.at("story")).at("follow_up").is_null());
}

TEST_CASE("probing turned off while a prompt is pending: its answer ends the probing",
          "[responses]") {
  Fixture f;
  addProbingQuestions(f, R"({"clarity_threshold": 0.9, "max_follow_ups": 5})");
  auto s = f.start();
  REQUIRE(f.save(s, "story", R"("ok")").answer().has_follow_up());
  for (auto& q : *f.change().mutable_questions()) {
    if (q.field_key() == "story") q.set_enable_dynamic_probing(false);
  }
  // The prompt the respondent saw may still be answered; nothing further is asked.
  const auto a = followUp(f, s, "story", R"("fine")").answer();
  CHECK(a.follow_ups_size() == 1);
  CHECK_FALSE(a.has_follow_up());
  CHECK(failure([&] { followUp(f, s, "story", R"("again")"); }).first ==
        ErrorCode::kNoFollowUpPending);
}

TEST_CASE("evaluation: the same answer is not judged twice, unless its custom fields changed",
          "[responses]") {
  Fixture f;
  auto s = f.start();
  f.save(s, "why", R"("The export fails.")");
  // What the save judged, marked so that a second judgement would show.
  const std::string marked =
      R"({"sentiment":"neutral","sentiment_score":0,"actionable":false,"key_topics":[],"summary":"kept"})";
  auto& row = f.store.rows.at(s.uuid());
  auto answers = responses::parseAnswers(row.response.answers_json());
  answers[0].set_ai_insights_json(marked);
  row.response.set_answers_json(responses::answersJson(answers));
  row.answers = answers;
  CHECK(byKey(f.submit(s, {{"score", "3"}}).response()).at("why").ai_insights_json() == marked);

  auto t = f.start();
  f.save(t, "why", R"("The price is too high.")");
  for (auto& q : *f.change().mutable_questions()) {
    if (q.field_key() == "why") q.set_evaluator_config_json(R"({"custom_fields": ["price"]})");
  }
  const auto insights = boost::json::parse(
      byKey(f.submit(t, {{"score", "3"}}).response()).at("why").ai_insights_json());
  CHECK(insights.at("custom_fields").at("price").as_string() == "The price is too high.");
}
