#include "services/responses/responses_service.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include "common/api/response_json.h"
#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "services/responses/stored_answers.h"

namespace responses = feedback::responses;
namespace v1 = feedback::responses::v1;
namespace lv1 = feedback::links::v1;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";
constexpr const char* kLink = "0e0e0e0e-1111-4222-8333-444455556666";

// Responses in memory. An update works on a copy that is kept only when `apply` returns, as a
// transaction would.
class FakeStore final : public responses::ResponsesStore {
 public:
  std::map<std::string, responses::StoredResponse> rows;
  std::vector<responses::OutboxEvent> outbox;
  std::map<std::string, int64_t> completed;  // by link
  std::vector<responses::Ordering> orderings_asked;

  void insertResponses(const std::vector<const responses::NewResponse*>& batch) override {
    for (const auto* n : batch) {
      const auto& r = n->stored;
      rows[r.response.uuid()] = r;
      outbox.insert(outbox.end(), n->events.begin(), n->events.end());
      if (r.response.status() == "completed") ++completed[r.response.link_uuid()];
    }
  }
  bool updateResponse(
      const std::string& ws, const std::string& uuid,
      const std::function<std::optional<Change>(responses::StoredResponse&)>& apply) override {
    auto it = rows.find(uuid);
    if (it == rows.end() || it->second.workspace_uuid != ws) return false;
    responses::StoredResponse copy = it->second;
    auto change = apply(copy);
    if (!change) return true;
    it->second = copy;
    outbox.insert(outbox.end(), change->events.begin(), change->events.end());
    if (change->completes) ++completed[copy.response.link_uuid()];
    return true;
  }
  std::optional<responses::StoredResponse> findResponse(const std::string& ws,
                                                        const std::string& uuid) override {
    auto it = rows.find(uuid);
    if (it == rows.end() || it->second.workspace_uuid != ws) return std::nullopt;
    return it->second;
  }
  std::vector<v1::Response> matching(const responses::ResponseFilter& f) {
    std::vector<v1::Response> out;
    for (const auto& [_, r] : rows) {
      if (r.workspace_uuid != f.workspace_uuid) continue;
      if (!f.link_uuid.empty() && r.response.link_uuid() != f.link_uuid) continue;
      bool done = r.response.status() == "completed";
      if (f.status == responses::StatusFilter::kCompleted && !done) continue;
      if (f.status == responses::StatusFilter::kInProgress && done) continue;
      out.push_back(r.response);
    }
    return out;
  }
  int64_t countResponses(const responses::ResponseFilter& f) override {
    return static_cast<int64_t>(matching(f).size());
  }
  std::vector<v1::Response> listResponses(const responses::ResponseFilter& f, responses::Ordering o,
                                          int64_t offset, int limit) override {
    orderings_asked.push_back(o);
    auto all = matching(f);
    bool ascending = o == responses::Ordering::kSubmittedAsc;
    std::sort(all.begin(), all.end(), [ascending](const v1::Response& a, const v1::Response& b) {
      auto ka = std::make_pair(a.submitted_at_micros(), a.uuid());
      auto kb = std::make_pair(b.submitted_at_micros(), b.uuid());
      return ascending ? ka < kb : kb < ka;
    });
    std::vector<v1::Response> page;
    for (int64_t i = offset; i < static_cast<int64_t>(all.size()) && i < offset + limit; ++i) {
      page.push_back(all[static_cast<std::size_t>(i)]);
    }
    return page;
  }
  CountedPage listCounted(const responses::ResponseFilter& f, responses::Ordering o, int64_t offset,
                          int limit) override {
    ++counted_pages;
    return {countResponses(f), listResponses(f, o, offset, limit)};
  }
  int counted_pages = 0;
  std::map<std::string, int64_t> completedCounts(const std::string&,
                                                 const std::vector<std::string>& links) override {
    std::map<std::string, int64_t> out;
    for (const auto& l : links) {
      if (completed.count(l)) out[l] = completed[l];
    }
    return out;
  }
};

// Records the count protocol: begun, then settled with a count (committed) or without.
class FakeCounts final : public responses::LinkCounts {
 public:
  bool unavailable = false;
  std::vector<std::string> begun;                          // every submission's name
  std::multiset<std::string> pending;                      // begun and not settled
  std::vector<std::pair<std::string, int64_t>> published;  // settled with a count
  int released = 0;                                        // settled without one
  int settled_unbegun = 0;
  void begin(const std::string&, const std::vector<std::string>& ids) override {
    if (unavailable) throw ApiError(ErrorCode::kServiceUnavailable);
    begun.insert(begun.end(), ids.begin(), ids.end());
    pending.insert(ids.begin(), ids.end());
  }
  void settle(const std::string& link, std::optional<responses::CountRead> count,
              const std::vector<std::string>& ids) override {
    if (count) {
      published.emplace_back(link, count->completed);
    } else {
      released += static_cast<int>(ids.size());
    }
    for (const auto& id : ids) {
      auto it = pending.find(id);
      if (it == pending.end()) {
        ++settled_unbegun;
      } else {
        pending.erase(it);
      }
    }
  }
  int open() const { return static_cast<int>(pending.size()) + settled_unbegun; }
};

lv1::Question question(const char* key, const char* type, const char* configuration = "{}",
                       const char* condition = "{}", bool required = false) {
  lv1::Question q;
  q.set_uuid(std::string("00000000-0000-4000-8000-") + std::string(12 - std::strlen(key), '0') +
             key);
  q.set_field_key(key);
  q.set_prompt(std::string("Prompt of ") + key);
  q.set_response_type(type);
  q.set_configuration_json(configuration);
  q.set_condition_json(condition);
  q.set_required(required);
  q.set_fallback_to_text(true);
  return q;
}

struct Fixture {
  FakeStore store;
  FakeCounts publisher;
  responses::DirectResponseWriter writer{store, publisher};
  responses::ResponsesService service{publisher};
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

std::map<std::string, v1::Answer> byKey(const v1::Response& r) {
  std::map<std::string, v1::Answer> out;
  for (const auto& a : responses::parseAnswers(r.answers_json())) out[a.field_key()] = a;
  return out;
}

}  // namespace

TEST_CASE("responses: a start stores the token's hash only and one started event", "[responses]") {
  Fixture f;
  auto started = f.start("ann@example.com");
  CHECK(started.token().size() == 32);
  REQUIRE(f.store.rows.count(started.uuid()));
  const auto& row = f.store.rows[started.uuid()];
  CHECK(row.token_hash == feedback::crypto::sha256Hex(started.token()));
  CHECK(row.response.status() == "in_progress");
  CHECK(row.response.respondent_email() == "ann@example.com");
  REQUIRE(f.store.outbox.size() == 1);
  auto payload = boost::json::parse(f.store.outbox[0].payload);
  CHECK(payload.at("type") == "response.started");
  CHECK(payload.at("data").at("workspace_uuid") == kWorkspace);
  CHECK(payload.at("data").at("link") ==
        boost::json::parse(R"({"uuid": ")" + std::string(kLink) +
                           R"(", "name": "Survey", "slug": "survey"})"));
  CHECK(payload.at("data").at("response").at("uuid") == boost::json::value(started.uuid()));
  CHECK(f.start().token() != started.token());
}

TEST_CASE("responses: paused links and bad emails take nothing", "[responses]") {
  Fixture f;
  CHECK(failure([&] { f.start("not-an-email"); }).first == ErrorCode::kValidationError);
  f.change().set_status("paused");
  CHECK(failure([&] { f.start(); }).first == ErrorCode::kLinkPaused);
  CHECK(failure([&] { f.oneShot({}); }).first == ErrorCode::kLinkPaused);
  CHECK(f.store.rows.empty());
  CHECK(f.store.outbox.empty());
}

TEST_CASE("responses: answers need the token, this link, an open response and a valid value",
          "[responses]") {
  Fixture f;
  auto s = f.start();
  CHECK(failure([&] { f.save(s, "why", R"("slow")", "wrong-token"); }).first ==
        ErrorCode::kNotFound);
  CHECK(failure([&] { f.save(s, "nope", R"("x")"); }).first == ErrorCode::kNotFound);
  auto bad = failure([&] { f.save(s, "score", "11"); });
  CHECK(bad.first == ErrorCode::kInvalidAnswer);
  CHECK(bad.second == std::set<std::string>{"score"});
  CHECK(failure([&] { f.save(s, "twice", "4"); }).first == ErrorCode::kInvalidAnswer);

  auto first = f.save(s, "why", R"("slow")");
  auto second = f.save(s, "why", R"("very slow")");
  CHECK(second.answer().uuid() == first.answer().uuid());
  CHECK(byKey(f.store.rows[s.uuid()].response).at("why").value_json() == R"("very slow")");
  f.save(s, "why", "");  // null clears
  CHECK(byKey(f.store.rows[s.uuid()].response).count("why") == 0);

  auto other = f.link;
  other.mutable_link()->set_uuid("0e0e0e0e-1111-4222-8333-999999999999");
  v1::SaveAnswerRequest elsewhere;
  *elsewhere.mutable_link() = other;
  elsewhere.set_response_uuid(s.uuid());
  elsewhere.set_token(s.token());
  elsewhere.mutable_answer()->set_field_key("why");
  elsewhere.mutable_answer()->set_value_json(R"("x")");
  CHECK(failure([&] { f.service.saveAnswer(f.store, elsewhere); }).first == ErrorCode::kNotFound);

  f.change().set_status("paused");
  CHECK(failure([&] { f.save(s, "why", R"("x")"); }).first == ErrorCode::kLinkPaused);
}

TEST_CASE("responses: a failed submit changes nothing; a good one completes and counts",
          "[responses]") {
  Fixture f;
  auto s = f.start("b@example.com");
  f.save(s, "score", "3");
  const auto before = f.store.rows[s.uuid()].response.SerializeAsString();
  auto missing = failure([&] { f.submit(s); });
  CHECK(missing.first == ErrorCode::kRequiredAnswerMissing);
  CHECK(missing.second == std::set<std::string>{"why"});
  CHECK(failure([&] { f.submit(s, {{"card", R"("c9")"}}); }).first == ErrorCode::kInvalidAnswer);
  CHECK(f.store.rows[s.uuid()].response.SerializeAsString() == before);
  CHECK(f.store.outbox.size() == 1);
  CHECK(f.publisher.published.empty());
  CHECK(f.publisher.released == 2);  // nothing committed: the link is no longer pending
  CHECK(f.publisher.open() == 0);

  auto done = f.submit(s, {{"why", R"("too slow")"}, {"card", R"("c1")"}});
  const auto& r = done.response();
  CHECK(r.status() == "completed");
  CHECK(r.submitted_at_micros() > 0);
  auto answers = byKey(r);
  CHECK(answers.at("score").rating_details().max_value() == 10);
  CHECK(answers.at("score").rating_details().scale_type() == "nps");
  CHECK(answers.at("card").selected_card().label() == "Cat");
  CHECK(answers.at("twice").value_json() == "6");
  CHECK(answers.at("why").question_text() == "Prompt of why");
  REQUIRE(f.store.outbox.size() == 2);
  auto payload = boost::json::parse(f.store.outbox[1].payload);
  CHECK(payload.at("type") == "response.submitted");
  CHECK(payload.at("data").at("response").at("status") == "completed");
  CHECK(f.publisher.published == std::vector<std::pair<std::string, int64_t>>{{kLink, 1}});
  CHECK(f.publisher.open() == 0);

  CHECK(failure([&] { f.submit(s); }).first == ErrorCode::kResponseAlreadySubmitted);
  CHECK(failure([&] { f.save(s, "why", R"("x")"); }).first == ErrorCode::kResponseAlreadySubmitted);

  // Each attempt is named apart, so that one attempt's end never ends another's entry.
  REQUIRE(f.publisher.begun.size() == 3);
  CHECK(std::set<std::string>(f.publisher.begun.begin(), f.publisher.begun.end()).size() == 3);
  for (const auto& name : f.publisher.begun) CHECK(name.rfind(s.uuid() + ":", 0) == 0);
}

TEST_CASE("responses: hidden answers are dropped; answers to removed questions too",
          "[responses]") {
  Fixture f;
  auto s = f.start();
  f.save(s, "why", R"("kept only if visible")");
  f.save(s, "card", R"("c1")");
  // The link changes: the card question goes away before the submission.
  auto* questions = f.change().mutable_questions();
  questions->DeleteSubrange(2, 1);
  auto done = f.submit(s, {{"score", "9"}});
  auto answers = byKey(done.response());
  CHECK(answers.count("why") == 0);  // score 9 hides it
  CHECK(answers.count("card") == 0);
  CHECK(answers.at("twice").value_json() == "18");
}

TEST_CASE("responses: a one-shot submission writes both events and counts", "[responses]") {
  Fixture f;
  auto bad = failure([&] { f.oneShot({{"score", "12"}, {"ghost", "1"}}); });
  CHECK(bad.first == ErrorCode::kInvalidAnswer);
  CHECK(bad.second == std::set<std::string>{"score", "ghost"});
  CHECK(failure([&] { f.oneShot({{"score", "2"}}); }).first == ErrorCode::kRequiredAnswerMissing);
  CHECK(f.store.rows.empty());

  auto done = f.oneShot({{"score", "2"}, {"why", R"("meh")"}});
  CHECK(done.status() == "completed");
  CHECK(done.started_at_micros() == done.submitted_at_micros());
  REQUIRE(f.store.outbox.size() == 2);
  CHECK(f.store.outbox[0].type == "response.started");
  CHECK(f.store.outbox[1].type == "response.submitted");
  CHECK(f.store.outbox[0].event_id != f.store.outbox[1].event_id);
  CHECK(byKey(done).at("twice").value_json() == "4");
  CHECK(f.publisher.published.back() == std::pair<std::string, int64_t>{kLink, 1});
  f.oneShot({{"score", "9"}});
  CHECK(f.publisher.published.back() == std::pair<std::string, int64_t>{kLink, 2});
}

TEST_CASE("responses: list parameters and the contract's errors", "[responses]") {
  Fixture f;
  v1::ListResponsesRequest list;
  list.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  list.set_ordering("bogus");
  CHECK(failure([&] { f.service.listResponses(f.store, list); }).first ==
        ErrorCode::kInvalidOrdering);
  list.set_ordering("-submitted_at");
  list.set_status("finished");
  CHECK(failure([&] { f.service.listResponses(f.store, list); }).first ==
        ErrorCode::kValidationError);
  list.set_status("");
  list.set_link_uuid("not-a-uuid");
  CHECK(failure([&] { f.service.listResponses(f.store, list); }).first ==
        ErrorCode::kValidationError);
  list.set_link_uuid("");
  // A later page is counted first, so that it can be read from the nearer end.
  list.mutable_page()->set_page(2);
  CHECK(failure([&] { f.service.listResponses(f.store, list); }).first == ErrorCode::kInvalidPage);
  CHECK(f.store.counted_pages == 0);
  // The first page comes with its count from one statement.
  list.mutable_page()->set_page(1);
  CHECK(f.service.listResponses(f.store, list).count() == 0);
  CHECK(f.store.counted_pages == 1);
  // So does every page of a search (which visits every match to count them); past the end is
  // INVALID_PAGE.
  list.set_search("anything");
  CHECK(f.service.listResponses(f.store, list).count() == 0);
  list.mutable_page()->set_page(3);
  CHECK(failure([&] { f.service.listResponses(f.store, list); }).first == ErrorCode::kInvalidPage);
  CHECK(f.store.counted_pages == 3);
}

TEST_CASE("responses: pages past the middle are read from the other end, in order", "[responses]") {
  Fixture f;
  std::vector<std::string> newest_first;
  for (int i = 0; i < 45; ++i) {
    auto r = f.oneShot({{"score", "9"}});
    // Distinct, increasing submission times.
    f.store.rows[r.uuid()].response.set_submitted_at_micros(1000 + i);
    newest_first.insert(newest_first.begin(), r.uuid());
  }
  v1::ListResponsesRequest list;
  list.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  list.mutable_page()->set_page_size(20);
  for (int page = 1; page <= 3; ++page) {
    list.mutable_page()->set_page(page);
    f.store.orderings_asked.clear();
    auto got = f.service.listResponses(f.store, list);
    CHECK(got.count() == 45);
    std::vector<std::string> uuids;
    for (const auto& r : got.responses()) uuids.push_back(r.uuid());
    std::size_t from = static_cast<std::size_t>(page - 1) * 20;
    std::vector<std::string> want(newest_first.begin() + static_cast<long>(from),
                                  newest_first.begin() + static_cast<long>(std::min<std::size_t>(
                                                             from + 20, newest_first.size())));
    INFO("page " << page);
    CHECK(uuids == want);
    // Offsets past 22 (half of 45) are read from the oldest end.
    CHECK(f.store.orderings_asked == std::vector{from > 22 ? responses::Ordering::kSubmittedAsc
                                                           : responses::Ordering::kSubmittedDesc});
  }
}

TEST_CASE("responses: details stay in their workspace and link; counts default to 0",
          "[responses]") {
  Fixture f;
  auto r = f.oneShot({{"score", "9"}});
  v1::GetResponseRequest get;
  get.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  get.set_response_uuid(r.uuid());
  CHECK(f.service.getResponse(f.store, get).response().uuid() == r.uuid());
  get.set_link_uuid(kLink);
  CHECK(f.service.getResponse(f.store, get).response().uuid() == r.uuid());
  get.set_link_uuid("0e0e0e0e-1111-4222-8333-999999999999");
  CHECK(failure([&] { f.service.getResponse(f.store, get); }).first == ErrorCode::kNotFound);
  get.set_link_uuid("");
  get.mutable_caller()->mutable_workspace()->set_uuid("6f1c1d4e-0a5b-4c1e-9d7a-000000000000");
  CHECK(failure([&] { f.service.getResponse(f.store, get); }).first == ErrorCode::kNotFound);

  v1::CountResponsesRequest count;
  count.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  count.add_link_uuids(kLink);
  count.add_link_uuids("0e0e0e0e-1111-4222-8333-999999999999");
  auto counts = f.service.countResponses(f.store, count);
  CHECK(counts.completed().at(kLink) == 1);
  CHECK(counts.completed().at("0e0e0e0e-1111-4222-8333-999999999999") == 0);
  count.add_link_uuids("nope");
  CHECK(failure([&] { f.service.countResponses(f.store, count); }).first ==
        ErrorCode::kValidationError);
}

TEST_CASE("responses: a wrong token is 404 before anything about the answers is judged",
          "[responses]") {
  Fixture f;
  auto s = f.start();
  CHECK(failure([&] { f.save(s, "score", R"("not a number")", "wrong-token"); }).first ==
        ErrorCode::kNotFound);
  auto wrong = s;
  wrong.set_token("wrong-token");
  CHECK(failure([&] {
          f.submit(wrong, {{"score", R"("x")"}, {"ghost", "1"}});
        }).first == ErrorCode::kNotFound);
  CHECK(f.publisher.open() == 0);
}

TEST_CASE("responses: without a way to record the count change, nothing is submitted",
          "[responses]") {
  Fixture f;
  auto s = f.start();
  f.save(s, "score", "9");
  f.publisher.unavailable = true;
  CHECK(failure([&] { f.oneShot({{"score", "9"}}); }).first == ErrorCode::kServiceUnavailable);
  CHECK(failure([&] { f.submit(s); }).first == ErrorCode::kServiceUnavailable);
  CHECK(f.store.rows.size() == 1);
  CHECK(f.store.rows[s.uuid()].response.status() == "in_progress");
  CHECK(f.store.outbox.size() == 1);  // the started event only
  f.publisher.unavailable = false;
  CHECK(f.submit(s).response().status() == "completed");
}
