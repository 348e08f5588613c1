#include "services/responses/responses_service.h"

#include "common/webhooks/webhook_rules.h"
#include "tests/unit/services/responses/responses_fixture.h"

using namespace responses_test;

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

TEST_CASE("responses: a one-shot submission writes both events in one row and counts",
          "[responses]") {
  Fixture f;
  auto bad = failure([&] { f.oneShot({{"score", "12"}, {"ghost", "1"}}); });
  CHECK(bad.first == ErrorCode::kInvalidAnswer);
  CHECK(bad.second == std::set<std::string>{"score", "ghost"});
  CHECK(failure([&] { f.oneShot({{"score", "2"}}); }).first == ErrorCode::kRequiredAnswerMissing);
  CHECK(f.store.rows.empty());

  auto done = f.oneShot({{"score", "2"}, {"why", R"("meh")"}});
  CHECK(done.status() == "completed");
  CHECK(done.started_at_micros() == done.submitted_at_micros());
  // One row for both events: response.submitted's, with the other event's own id, whose
  // payload the dispatcher makes by swapping the type at the start of the row's.
  REQUIRE(f.store.outbox.size() == 1);
  const auto& both = f.store.outbox[0];
  CHECK(both.type == "response.submitted");
  CHECK(!both.started_event_id.empty());
  CHECK(both.event_id != both.started_event_id);
  REQUIRE(both.payload.rfind(feedback::webhooks::kSubmittedPayloadPrefix, 0) == 0);
  auto submitted = boost::json::parse(both.payload).as_object();
  auto started =
      boost::json::parse(std::string(feedback::webhooks::kStartedPayloadPrefix) +
                         both.payload.substr(feedback::webhooks::kSubmittedPayloadPrefix.size()))
          .as_object();
  CHECK(started.at("type") == "response.started");
  started.erase("type");
  submitted.erase("type");
  CHECK(started == submitted);
  CHECK(submitted.at("data").at("response").at("status") == "completed");
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
    ++f.store.version;  // a write in between: no page is continued from the one before
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

TEST_CASE("responses: pages that follow one another are read from where the last one ended",
          "[responses]") {
  Fixture f;
  std::vector<std::string> newest_first;
  for (int i = 0; i < 95; ++i) {
    auto r = f.oneShot({{"score", "9"}});
    // Submission times with ties, broken by uuid.
    f.store.rows[r.uuid()].response.set_submitted_at_micros(1000 + i / 3);
  }
  responses::ResponseFilter completed;
  completed.workspace_uuid = kWorkspace;
  auto newest = [&] { return f.store.sorted(completed, responses::Ordering::kSubmittedDesc); };
  for (const auto& r : newest()) newest_first.push_back(r.uuid());
  v1::ListResponsesRequest list;
  list.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  list.mutable_page()->set_page_size(10);
  auto read = [&](int page) {
    list.mutable_page()->set_page(page);
    std::vector<std::string> uuids;
    const auto got = f.service.listResponses(f.store, list);
    for (const auto& r : got.responses()) uuids.push_back(r.uuid());
    const auto from = newest_first.begin() + (page - 1) * 10;
    INFO("page " << page);
    CHECK(uuids == std::vector<std::string>(from, std::min(from + 10, newest_first.end())));
  };
  // Forward, following `next`: every page after the first sought from the one before.
  for (int page = 1; page <= 10; ++page) read(page);
  CHECK(f.store.seeks == 9);
  // Back, following `previous`, and a jump of a few pages from a page read: sought too.
  read(9);
  read(5);
  CHECK(f.store.seeks == 11);
  // Any page once the list changed: read by offset.
  f.oneShot({{"score", "9"}});
  newest_first.insert(newest_first.begin(), newest().front().uuid());
  const int seeks_then = f.store.seeks;
  read(4);
  CHECK(f.store.seeks == seeks_then);
  read(5);
  CHECK(f.store.seeks == seeks_then + 1);
  // A page whose rows were read after a change its count did not see leaves no anchors: a
  // read that counted before that change would seek from rows that moved.
  f.oneShot({{"score", "9"}});
  newest_first.insert(newest_first.begin(), newest().front().uuid());
  read(1);
  f.store.while_reading_page = [&f] { ++f.store.version; };
  read(2);
  f.store.while_reading_page = nullptr;
  f.store.version -= 1;  // as counted by a read that raced the change
  const int seeks_before = f.store.seeks;
  read(3);
  CHECK(f.store.seeks == seeks_before + 1);
  CHECK(f.store.last_skip == 10);  // from page 1's last row, not page 2's
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

// Internal gRPC callers send value_json themselves: a number past a double's range is no JSON
// value an answer can keep.
TEST_CASE("responses: an answer holding a number past a double is INVALID_ANSWER", "[responses]") {
  Fixture f;
  auto s = f.start();
  CHECK(failure([&] { f.save(s, "score", "1e400"); }).first == ErrorCode::kInvalidAnswer);
  CHECK(failure([&] { f.oneShot({{"score", "-1e400"}}); }).first == ErrorCode::kInvalidAnswer);
}
