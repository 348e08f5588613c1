// Link summaries (docs/api.md "AI insights and summaries") from summary facts: exact NPS,
// averages, distributions, medians, choice counts and text statistics, through the responses
// rules on the in-memory store.
#include "services/responses/link_summary.h"
#include "services/responses/summary_facts.h"

#include "tests/unit/services/responses/responses_fixture.h"

using namespace responses_test;

namespace {

struct SummaryFixture : Fixture {
  SummaryFixture() {
    auto& l = change();
    l.clear_questions();
    *l.add_questions() = question("nps", "rating", R"({"scale_type": "nps"})");
    *l.add_questions() = question("stars", "rating", R"({"max_value": 5})");
    *l.add_questions() =
        question("plan", "multiple_choice", R"({"options": ["basic", "pro", "team"]})");
    *l.add_questions() = question("again", "yes_no");
    *l.add_questions() = question("seats", "number", R"({"min": 0, "max": 1000})");
    *l.add_questions() = question("comment", "text");
    *l.add_questions() = question("note", "help_block", R"({"content": "Thanks"})");
  }

  // The document gateways older than GetLinkSummaryRequest.link pass: the link's questions
  // as the API shows them.
  std::string document() const {
    std::string out = R"({"uuid":")" + std::string(kLink) + R"(","questions":[)";
    for (int i = 0; i < link.link().questions_size(); ++i) {
      const auto& q = link.link().questions(i);
      if (i) out += ",";
      out += R"({"uuid":")" + q.uuid() + R"(","field_key":")" + q.field_key() +
             R"(","response_type":")" + q.response_type() + R"(","configuration":)" +
             q.configuration_json() + "}";
    }
    return out + "]}";
  }

  // The summary as a gateway asks for it (the link itself), or as an older one did (its
  // document).
  boost::json::object summary(std::optional<int64_t> since = {}, std::optional<int64_t> until = {},
                              bool as_document = false) {
    v1::GetLinkSummaryRequest r;
    r.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
    r.set_link_uuid(kLink);
    if (as_document) {
      r.set_link_json(document());
    } else {
      *r.mutable_link() = link.link();
    }
    if (since) r.set_since_micros(*since);
    if (until) r.set_until_micros(*until);
    return boost::json::parse(service.linkSummary(store, r).summary_json()).as_object();
  }
};

boost::json::object stats(const boost::json::object& summary, const char* field_key) {
  for (const auto& q : summary.at("questions").as_array()) {
    if (q.at("field_key").as_string() == field_key) return q.at("stats").as_object();
  }
  FAIL("no question " << field_key);
  return {};
}

int64_t answered(const boost::json::object& summary, const char* field_key) {
  for (const auto& q : summary.at("questions").as_array()) {
    if (q.at("field_key").as_string() == field_key) return q.at("answered").as_int64();
  }
  return -1;
}

}  // namespace

TEST_CASE("summary: exact statistics of known answers", "[responses]") {
  SummaryFixture f;
  f.oneShot({{"nps", "10"},
             {"stars", "5"},
             {"plan", R"("pro")"},
             {"again", "true"},
             {"seats", "12"},
             {"comment", R"("Fantastic support, thank you!")"}});
  f.oneShot(
      {{"nps", "9"}, {"stars", "4"}, {"plan", R"("pro")"}, {"again", "true"}, {"seats", "3"}});
  f.oneShot({{"nps", "8"},
             {"stars", "4"},
             {"plan", R"("basic")"},
             {"again", "false"},
             {"seats", "40"},
             {"comment", R"("The export keeps failing and it is slow.")"}});
  f.oneShot({{"nps", "6"}, {"again", "false"}, {"seats", "7"}});
  f.oneShot({{"nps", "0"}, {"stars", "1"}, {"comment", R"("Awful. Please add a refund button.")"}});
  auto started = f.start();  // in progress: started, not completed
  f.save(started, "nps", "10");

  const auto s = f.summary();
  CHECK(s.at("link_uuid").as_string() == kLink);
  CHECK(s.at("response_count").as_int64() == 5);
  CHECK(s.at("started_count").as_int64() == 6);
  CHECK(s.at("completion_rate").to_number<double>() == Approx(5.0 / 6.0));
  REQUIRE(s.at("questions").as_array().size() == 7);

  const auto nps = stats(s, "nps");  // 10, 9 | 8 | 6, 0
  CHECK(nps.at("promoters").as_int64() == 2);
  CHECK(nps.at("passives").as_int64() == 1);
  CHECK(nps.at("detractors").as_int64() == 2);
  CHECK(nps.at("nps").to_number<double>() == Approx(0.0));
  CHECK(nps.at("distribution").as_object().size() == 11);
  CHECK(nps.at("distribution").at("10").as_int64() == 1);
  CHECK(nps.at("distribution").at("5").as_int64() == 0);

  const auto stars = stats(s, "stars");  // 5, 4, 4, 1
  CHECK(stars.at("average").to_number<double>() == Approx(3.5));
  CHECK(stars.at("distribution").at("4").as_int64() == 2);
  CHECK(stars.at("distribution").as_object().size() == 5);
  CHECK(answered(s, "stars") == 4);

  const auto plan = stats(s, "plan").at("counts").as_object();
  CHECK(plan.at("pro").as_int64() == 2);
  CHECK(plan.at("basic").as_int64() == 1);
  CHECK(plan.at("team").as_int64() == 0);

  const auto again = stats(s, "again");
  CHECK(again.at("yes").as_int64() == 2);
  CHECK(again.at("no").as_int64() == 2);

  const auto seats = stats(s, "seats");  // 3, 7, 12, 40
  CHECK(seats.at("min").to_number<double>() == 3);
  CHECK(seats.at("max").to_number<double>() == 40);
  CHECK(seats.at("mean").to_number<double>() == Approx(15.5));
  CHECK(seats.at("median").to_number<double>() == Approx(9.5));

  const auto comment = stats(s, "comment");
  CHECK(answered(s, "comment") == 3);
  const auto& sentiment = comment.at("sentiment").as_object();
  CHECK(sentiment.at("positive").as_int64() + sentiment.at("neutral").as_int64() +
            sentiment.at("negative").as_int64() ==
        3);
  CHECK(sentiment.at("positive").as_int64() == 1);
  CHECK(comment.at("actionable").as_int64() == 2);
  const auto& topics = comment.at("top_topics").as_array();
  REQUIRE_FALSE(topics.empty());
  for (std::size_t i = 1; i < topics.size(); ++i) {
    CHECK(topics[i - 1].at("count").as_int64() >= topics[i].at("count").as_int64());
  }
  CHECK(stats(s, "note").empty());
  CHECK(answered(s, "note") == 0);
}

TEST_CASE("summary: empty links, bounds, and questions changed since", "[responses]") {
  SummaryFixture f;
  auto empty = f.summary();
  CHECK(empty.at("response_count").as_int64() == 0);
  CHECK(empty.at("completion_rate").to_number<double>() == 0);
  CHECK(stats(empty, "nps").at("nps").is_null());
  CHECK(stats(empty, "seats").at("median").is_null());
  CHECK(stats(empty, "stars").at("average").is_null());

  const auto first = f.oneShot({{"nps", "10"}, {"plan", R"("team")"}});
  const auto second = f.oneShot({{"nps", "0"}});
  CHECK(f.summary(second.submitted_at_micros()).at("response_count").as_int64() == 1);
  CHECK(f.summary(std::nullopt, first.submitted_at_micros()).at("response_count").as_int64() == 1);
  REQUIRE(second.submitted_at_micros() > first.submitted_at_micros());
  CHECK(f.summary(first.submitted_at_micros() + 1, second.submitted_at_micros() - 1)
            .at("response_count")
            .as_int64() == 0);

  // An option removed from the question is no longer counted; answers stay counted as answered.
  f.change().mutable_questions(2)->set_configuration_json(R"({"options": ["basic", "pro"]})");
  const auto now = f.summary();
  CHECK(stats(now, "plan").at("counts").as_object().size() == 2);
  CHECK(answered(now, "plan") == 1);
}

TEST_CASE("summary: options with quotes, commas and backslashes are counted as given",
          "[responses]") {
  SummaryFixture f;
  f.change().mutable_questions(2)->set_configuration_json(
      R"({"options": ["say \"hi\"", "a, b", "back\\slash", "ünï"], "allow_multiple": true})");
  f.oneShot({{"plan", R"(["say \"hi\"", "a, b"])"}});
  f.oneShot({{"plan", R"(["back\\slash", "ünï", "a, b"])"}});
  const auto counts = stats(f.summary(), "plan").at("counts").as_object();
  CHECK(counts.at("say \"hi\"").as_int64() == 1);
  CHECK(counts.at("a, b").as_int64() == 2);
  CHECK(counts.at("back\\slash").as_int64() == 1);
  CHECK(counts.at("ünï").as_int64() == 1);
}

TEST_CASE("summary: a request with the link's document, as older gateways send, sums alike",
          "[responses]") {
  SummaryFixture f;
  f.oneShot({{"nps", "10"}, {"plan", R"("pro")"}, {"comment", R"("Great, thanks!")"}});
  f.oneShot({{"nps", "3"}, {"again", "false"}});
  CHECK(f.summary() == f.summary({}, {}, /*as_document=*/true));
  CHECK(stats(f.summary({}, {}, true), "nps").at("detractors").as_int64() == 1);
}

TEST_CASE("summary: a link whose question is malformed is refused, not summed", "[responses]") {
  SummaryFixture f;
  v1::GetLinkSummaryRequest r;
  r.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  r.set_link_uuid(kLink);
  *r.mutable_link() = f.link.link();
  r.mutable_link()->mutable_questions(0)->set_configuration_json("[1, 2]");
  CHECK(failure([&] { f.service.linkSummary(f.store, r); }).first == ErrorCode::kValidationError);
}

TEST_CASE("summary: the link document must be one", "[responses]") {
  SummaryFixture f;
  v1::GetLinkSummaryRequest r;
  r.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  r.set_link_uuid(kLink);
  r.set_link_json("[]");
  CHECK(failure([&] { f.service.linkSummary(f.store, r); }).first == ErrorCode::kValidationError);
  r.set_link_uuid("nope");
  CHECK(failure([&] { f.service.linkSummary(f.store, r); }).first == ErrorCode::kValidationError);
}

TEST_CASE("summary: the statistics of the types beyond the 13", "[responses]") {
  SummaryFixture f;
  auto& l = f.change();
  l.clear_questions();
  const char* grid = R"({"rows": [{"id": "speed", "label": "S"}, {"id": "price", "label": "P"}],
                         "columns": [{"id": "bad", "label": "B"}, {"id": "ok", "label": "O"}],
                         "multiple": true})";
  *l.add_questions() = question("nps", "nps");
  *l.add_questions() = question("csat", "csat");
  *l.add_questions() = question("scale", "opinion_scale", R"({"start_at_one": false})");
  *l.add_questions() = question("level", "slider");
  *l.add_questions() = question("span", "slider", R"({"range": true})");
  *l.add_questions() = question("rank", "ranking", R"({"options": ["a", "b", "c"]})");
  *l.add_questions() = question("grid", "matrix", grid);
  *l.add_questions() = question("terms", "consent", R"({"text": "I agree."})");
  *l.add_questions() = question("src", "hidden_field");
  *l.add_questions() = question("story", "long_text");
  *l.add_questions() = question("plan", "dropdown", R"({"options": ["free", "pro"]})");
  *l.add_questions() = question("trip", "date_range");
  f.oneShot({{"nps", "10"},
             {"csat", "5"},
             {"scale", "0"},
             {"level", "10"},
             {"span", "[10, 50]"},
             {"rank", R"(["a", "b", "c"])"},
             {"grid", R"({"speed": ["bad", "ok"]})"},
             {"terms", "true"},
             {"src", R"("mail")"},
             {"story", R"("Lovely, thanks")"},
             {"plan", R"("pro")"},
             {"trip", R"({"start": "2024-01-01", "end": "2024-01-02"})"}});
  f.oneShot({{"nps", "3"},
             {"csat", "2"},
             {"scale", "4"},
             {"level", "20"},
             {"span", "[20, 80]"},
             {"rank", R"(["b", "a", "c"])"},
             {"grid", R"({"speed": ["ok"], "price": ["ok"]})"},
             {"src", R"("mail")"}});
  f.oneShot({{"csat", "4"}, {"level", "60"}, {"span", "[30, 60]"}, {"src", R"("ad")"}});

  const auto s = f.summary();
  const auto nps = stats(s, "nps");
  CHECK(nps.at("nps").to_number<double>() == Approx(0.0));
  CHECK(nps.at("promoters").as_int64() == 1);
  CHECK(nps.at("detractors").as_int64() == 1);
  const auto csat = stats(s, "csat");  // 5, 2, 4
  CHECK(csat.at("csat").to_number<double>() == Approx(2.0 / 3.0));
  CHECK(csat.at("average").to_number<double>() == Approx(11.0 / 3.0));
  CHECK(csat.at("distribution").as_object().size() == 5);
  const auto scale = stats(s, "scale");  // a 0..4 scale
  CHECK(scale.at("distribution").as_object().size() == 5);
  CHECK(scale.at("distribution").at("0").as_int64() == 1);
  CHECK(scale.at("average").to_number<double>() == Approx(2.0));
  const auto level = stats(s, "level");
  CHECK(level.at("median").to_number<double>() == 20);
  CHECK(level.at("mean").to_number<double>() == Approx(30.0));
  const auto span = stats(s, "span");
  CHECK(span.at("low").at("max").to_number<double>() == 30);
  CHECK(span.at("high").at("median").to_number<double>() == 60);
  const auto rank = stats(s, "rank");
  CHECK(rank.at("average_rank").at("a").to_number<double>() == Approx(1.5));
  CHECK(rank.at("average_rank").at("c").to_number<double>() == Approx(3.0));
  CHECK(rank.at("first_place").at("b").as_int64() == 1);
  CHECK(rank.at("first_place").at("c").as_int64() == 0);
  const auto cells = stats(s, "grid").at("counts");
  CHECK(cells.at("speed").at("ok").as_int64() == 2);
  CHECK(cells.at("speed").at("bad").as_int64() == 1);
  CHECK(cells.at("price").at("bad").as_int64() == 0);
  CHECK(stats(s, "terms").at("accepted").as_int64() == 1);
  const auto sources = stats(s, "src").at("counts").as_object();
  CHECK(sources.size() == 2);
  CHECK(sources.at("mail").as_int64() == 2);
  CHECK(sources.at("ad").as_int64() == 1);
  CHECK(stats(s, "story").contains("sentiment"));
  CHECK(stats(s, "plan").at("counts").at("pro").as_int64() == 1);
  CHECK(stats(s, "trip").empty());
  CHECK(answered(s, "trip") == 1);
}

TEST_CASE("summary: facts name questions by the last 12 digits of their uuid, or by the whole",
          "[responses]") {
  namespace q = feedback::questions;
  auto question = [](const char* uuid, const char* type) {
    q::Question out;
    out.uuid = uuid;
    out.field_key = std::string("k") + uuid[0];
    out.response_type = type;
    return out;
  };
  feedback::responses::LinkSummary summary(
      {question("11111111-1111-4111-8111-aaaaaaaaaaaa", "number"),
       question("22222222-2222-4222-8222-bbbbbbbbbbbb", "number"),
       // Two questions sharing a ref: only their whole uuids name them.
       question("33333333-3333-4333-8333-cccccccccccc", "number"),
       question("44444444-4444-4444-8444-cccccccccccc", "number")});
  CHECK(feedback::responses::questionRef("11111111-1111-4111-8111-aaaaaaaaaaaa") == "aaaaaaaaaaaa");
  summary.add("aaaaaaaaaaaa\tn\t4\n22222222-2222-4222-8222-bbbbbbbbbbbb\tn\t6\n");
  summary.add("11111111-1111-4111-8111-aaaaaaaaaaaa\tn\t8\nbbbbbbbbbbbb\tn\t2\n");
  summary.add("cccccccccccc\tn\t1\n33333333-3333-4333-8333-cccccccccccc\tn\t3\n");
  const auto s = boost::json::parse(summary.json(kLink, 3)).as_object();
  auto mean = [&s](const char* key) { return stats(s, key).at("mean").to_number<double>(); };
  CHECK(mean("k1") == Approx(6.0));
  CHECK(mean("k2") == Approx(4.0));
  CHECK(mean("k3") == Approx(3.0));
  CHECK(answered(s, "k4") == 0);
}

TEST_CASE("summary: two summaries of halves of the facts add up to one of them all",
          "[responses]") {
  SummaryFixture f;
  auto& l = f.change();
  *l.add_questions() = question("rank", "ranking", R"({"options": ["a", "b"]})");
  *l.add_questions() = question("span", "slider", R"({"range": true})");
  *l.add_questions() = question("src", "hidden_field");
  const char* rows[][2] = {{"nps", "10"},
                           {"nps", "3"},
                           {"plan", R"("pro")"},
                           {"seats", "7"},
                           {"again", "true"},
                           {"comment", R"("Great, thanks")"},
                           {"rank", R"(["b", "a"])"},
                           {"span", "[10, 20]"},
                           {"src", R"("x")"}};
  for (int i = 0; i < 12; ++i) {
    const auto& row = rows[i % 9];
    f.oneShot({{row[0], row[1]}, {"seats", std::to_string(i)}});
  }
  std::vector<std::string> facts;
  responses::ResponsesStore::FactsLayouts layouts;
  f.store.forEachSummaryFacts(
      kWorkspace, kLink, {}, {}, [&](const auto& kept) { layouts = kept; },
      [&](const auto& batch) { facts.assign(batch.begin(), batch.end()); });
  REQUIRE(facts.size() == 12);
  auto questions = feedback::responses::summarised(responses::questionsOf(f.link.link()));
  feedback::responses::LinkSummary all(questions), first(questions), second(questions);
  for (const auto& [id, uuids] : layouts) {
    for (auto* summary : {&all, &first, &second}) summary->addLayout(id, uuids);
  }
  for (std::size_t i = 0; i < facts.size(); ++i) {
    all.add(facts[i]);
    (i < 5 ? first : second).add(facts[i]);
  }
  first.merge(second);
  CHECK(first.json(kLink, 12) == all.json(kLink, 12));
}

TEST_CASE("summary: facts written with their link's layout are half as long and sum up alike",
          "[responses]") {
  SummaryFixture f;
  for (int i = 0; i < 6; ++i) {
    f.oneShot({{"nps", std::to_string(i + 4)},
               {"stars", "4"},
               {"plan", R"("pro")"},
               {"again", "true"},
               {"seats", std::to_string(i)},
               {"comment", R"("Fine")"}});
  }
  auto questions = feedback::responses::summarised(responses::questionsOf(f.link.link()));
  feedback::responses::LinkSummary by_ref(questions);
  std::size_t short_bytes = 0, long_bytes = 0;
  for (const auto& [uuid, row] : f.store.rows) {
    REQUIRE(row.facts_layout);
    const auto answers = responses::parseAnswers(row.response.answers_json());
    const auto with_layout = responses::summaryFacts(answers, row.facts_layout.get());
    const auto with_refs = responses::summaryFacts(answers);
    CHECK(with_layout.rfind("@" + row.facts_layout->id() + "\n", 0) == 0);
    short_bytes += with_layout.size();
    long_bytes += with_refs.size();
    by_ref.add(with_refs);
  }
  CHECK(short_bytes * 10 <= long_bytes * 6);
  // The service reads the short form (the store keeps it), with its layouts.
  CHECK(f.summary() == boost::json::parse(by_ref.json(kLink, 6)).as_object());
}

TEST_CASE("summary: facts of a layout follow the link's questions as they are now", "[responses]") {
  namespace q = feedback::questions;
  const char* a = "11111111-1111-4111-8111-aaaaaaaaaaaa";
  const char* b = "22222222-2222-4222-8222-bbbbbbbbbbbb";
  const char* c = "33333333-3333-4333-8333-cccccccccccc";
  const char* d = "44444444-4444-4444-8444-dddddddddddd";
  auto question = [](const char* uuid) {
    q::Question out;
    out.uuid = uuid;
    out.field_key = std::string("k") + uuid[0];
    out.response_type = "number";
    return out;
  };
  auto answers = [](std::vector<std::pair<const char*, int>> given) {
    std::vector<v1::Answer> out;
    for (const auto& [uuid, value] : given) {
      auto& a = out.emplace_back();
      a.set_question_uuid(uuid);
      a.set_response_type("number");
      a.set_value_json(std::to_string(value));
    }
    return out;
  };
  const responses::FactsLayout then({a, b, c});
  const responses::FactsLayout without_b({a, c});
  // Written when the link was a, b, c (twice, once with b skipped) and when it was a, c
  // (b's answer, saved before b was removed, keeps its ref: the next line says where it is).
  const auto all = responses::summaryFacts(answers({{a, 1}, {b, 2}, {c, 3}}), &then);
  const auto skipped = responses::summaryFacts(answers({{a, 5}, {c, 7}}), &then);
  const auto outside = responses::summaryFacts(answers({{a, 9}, {b, 4}, {c, 11}}), &without_b);
  CHECK(all == "@" + then.id() + "\n\tn\t1\n\tn\t2\n\tn\t3\n");
  CHECK(skipped == "@" + then.id() + "\n\tn\t5\n2\tn\t7\n");
  CHECK(outside == "@" + without_b.id() + "\n\tn\t9\nbbbbbbbbbbbb\tn\t4\n1\tn\t11\n");

  // Now c, a, d: b removed, d added, the order changed.
  feedback::responses::LinkSummary summary({question(c), question(a), question(d)});
  summary.addLayout(then.id(), then.uuids());
  summary.addLayout(without_b.id(), without_b.uuids());
  for (const auto& facts : {all, skipped, outside}) summary.add(facts);
  // A layout nobody gave: the response counts, its facts cannot be placed.
  summary.add("@0123456789abcdef\n\tn\t100\n");
  const auto s = boost::json::parse(summary.json(kLink, 4)).as_object();
  CHECK(s.at("response_count").as_int64() == 4);
  CHECK(stats(s, "k1").at("mean").to_number<double>() == Approx(5.0));
  CHECK(stats(s, "k3").at("mean").to_number<double>() == Approx(7.0));
  CHECK(answered(s, "k3") == 3);
  CHECK(answered(s, "k4") == 0);
}

TEST_CASE("summary: completed responses per day, only when asked", "[responses]") {
  SummaryFixture f;
  f.oneShot({{"nps", "9"}});
  f.oneShot({{"nps", "3"}});
  f.start();  // in progress: not completed on any day
  v1::GetLinkSummaryRequest r;
  r.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  r.set_link_uuid(kLink);
  *r.mutable_link() = f.link.link();
  CHECK(f.service.linkSummary(f.store, r).daily_size() == 0);
  r.set_daily(true);
  const auto answer = f.service.linkSummary(f.store, r);
  int64_t completed = 0;
  for (const auto& d : answer.daily()) {
    CHECK(d.day().size() == 10);
    completed += d.completed();
  }
  CHECK(completed == 2);
}

TEST_CASE("summary: kept while the link and its responses stay as they are", "[responses]") {
  SummaryFixture f;
  f.oneShot({{"nps", "9"}});
  v1::GetLinkSummaryRequest r;
  r.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
  r.set_link_uuid(kLink);
  *r.mutable_link() = f.link.link();
  r.set_keep(true);
  auto read = [&] { return boost::json::parse(f.service.linkSummary(f.store, r).summary_json()); };
  const auto first = read();
  CHECK(read() == first);
  CHECK(f.store.summaries_read == 1);
  // A new response, one started, a changed link: each is read afresh.
  f.oneShot({{"nps", "2"}});
  CHECK(read().at("response_count") == 2);
  CHECK(f.store.summaries_read == 2);
  f.start();
  CHECK(read().at("started_count") == 3);
  CHECK(f.store.summaries_read == 3);
  *r.mutable_link() = f.change();
  read();
  CHECK(f.store.summaries_read == 4);
  // Never for bounds, nor without keep.
  r.set_since_micros(0);
  read();
  read();
  CHECK(f.store.summaries_read == 6);
}
