// Answers to a form (the responses service's rules, common/questions/form_rules.h): the input
// is {"questions": [...], "answers": {field_key: value}}. The questions become a link as the
// links service saves it; the answers are then submitted in one call and, on a started
// response, saved one by one and submitted. Every refusal is a client error (4xx); a stored
// response renders as the API shows it, with answers only to the link's questions, and its
// summary facts count each answered question once in the link's summary.
#include <boost/json/parse.hpp>

#include "common/api/response_json.h"
#include "common/core/json_text.h"
#include "services/responses/intake_form.h"
#include "services/responses/link_summary.h"
#include "tests/fuzz/support/links_under_test.h"
#include "tests/unit/services/responses/responses_fakes.h"

namespace r = feedback::responses;
namespace rv1 = feedback::responses::v1;
using feedback::fuzz::LinksUnderTest;

namespace {

struct ResponsesUnderTest {
  responses_test::FakeStore store;
  responses_test::FakeCounts counts;
  r::DirectResponseWriter writer{store, counts};
  const r::evaluation::LocalEvaluator evaluator{};
  r::ResponsesService service{counts, evaluator};

  template <class F>
  static bool judged(F f) {
    try {
      f();
      return true;
    } catch (const feedback::ApiError& e) {
      FUZZ_CHECK(e.spec().http_status >= 400 && e.spec().http_status < 500);
      return false;
    }
  }
};

boost::json::object parsedObject(const std::string& text) {
  boost::system::error_code ec;
  auto value = boost::json::parse(text, ec);
  FUZZ_CHECK(!ec && value.is_object());
  return value.as_object();
}

// A stored record as the API shows it, and its place in the link's summary.
void checkRecord(const std::string& record, const r::IntakeForm& form,
                 const std::vector<rv1::Answer>& answers) {
  const auto shown = parsedObject(record);
  std::set<std::string> keys;
  for (const auto& a : shown.at("answers").as_array()) {
    const auto& key = a.at("field_key").as_string();
    FUZZ_CHECK(form.rules().find(key) != nullptr);
    FUZZ_CHECK(keys.insert(std::string(key)).second);
  }
  r::LinkSummary summary(form.rules().questions());
  summary.add(r::summaryFacts(answers));
  const auto json = parsedObject(summary.json(form.link().uuid(), 1));
  for (const auto& q : json.at("questions").as_array()) {
    FUZZ_CHECK(q.at("answered").to_number<int64_t>() <= 1);
  }
}

void submitInOneCall(const rv1::IntakeLink& link, const r::IntakeForm& form,
                     const boost::json::object& answers) {
  ResponsesUnderTest t;
  rv1::CompletedSubmission submission;
  for (const auto& [key, value] : answers) {
    auto* a = submission.add_answers();
    a->set_field_key(std::string(key));
    a->set_value_json(feedback::jsonText(value));
  }
  t.judged([&] {
    auto accepted = t.service.createCompletedResponse(link, submission);
    const auto answers_stored = accepted.write.stored.answers;
    t.writer.writeNow(std::move(accepted.write));
    checkRecord(accepted.answer, form, answers_stored);
  });
}

void saveThenSubmit(const rv1::IntakeLink& link, const boost::json::object& answers) {
  ResponsesUnderTest t;
  rv1::StartResponseRequest start;
  *start.mutable_link() = link;
  auto accepted = t.service.startResponse(start);
  const auto started = accepted.answer;
  t.writer.writeNow(std::move(accepted.write));
  for (const auto& [key, value] : answers) {
    rv1::SaveAnswerRequest save;
    *save.mutable_link() = link;
    save.set_response_uuid(started.uuid());
    save.set_token(started.token());
    save.mutable_answer()->set_field_key(std::string(key));
    save.mutable_answer()->set_value_json(feedback::jsonText(value));
    t.judged([&] { t.service.saveAnswer(t.store, save); });
  }
  rv1::SubmitResponseRequest submit;
  *submit.mutable_link() = link;
  submit.set_response_uuid(started.uuid());
  submit.set_token(started.token());
  t.judged([&] { t.service.submitResponse(t.store, submit); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  boost::system::error_code ec;
  auto input = boost::json::parse(feedback::fuzz::asText(data, size), ec);
  if (ec || !input.is_object()) return 0;
  const auto* questions = input.as_object().if_contains("questions");
  const auto* answers = input.as_object().if_contains("answers");
  if (!questions || !answers || !answers->is_object()) return 0;

  LinksUnderTest links;
  auto saved = links.create({{"name", "Fuzz"}, {"questions", *questions}});
  if (!saved) return 0;
  rv1::IntakeLink link;
  link.set_workspace_uuid(LinksUnderTest::kWorkspace);
  link.set_workspace_host("acme.feedback.example");
  *link.mutable_link() = *saved;
  const r::IntakeForm form(link);

  submitInOneCall(link, form, answers->as_object());
  saveThenSubmit(link, answers->as_object());
  return 0;
}
