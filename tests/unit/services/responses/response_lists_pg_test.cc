// The list statements of PgResponsesStore, through the rules (ResponsesService::listResponses),
// against a real PostgreSQL (scratch_database.h): every shape (one link or the workspace, each
// status filter, time bounds, the four orderings) gives every page as a sort of the rows in
// memory does, whether a page is read first, after the one before it (sought from its last
// row), backwards, or by its offset; and what the first page, a page sought deep in the list
// and a page of email order cost does not depend on how many responses the table holds.
//
// Needs a database, so it is hidden from the unit run ("[.pg]") and run by the integration
// tests (tests/integration/test_responses.py); without one it fails rather than pass.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <optional>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/pg/connect.h"
#include "services/responses/pg_responses_store.h"
#include "services/responses/response_queries.h"
#include "tests/unit/services/responses/responses_fakes.h"
#include "tests/unit/support/scratch_database.h"

using pg_test::exec;
using pg_test::pagesRead;
using namespace responses_test;
using responses::Ordering;
using responses::StatusFilter;

namespace {

constexpr const char* kOtherLink = "0e0e0e0e-2222-4222-8333-444455556666";
constexpr const char* kOtherWorkspaceLink = "0e0e0e0e-3333-4222-8333-444455556666";
constexpr const char* kOtherWorkspace = "7f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";
constexpr int64_t kEpoch = 1'790'000'000'000'000;  // 2026-09-21, in microseconds

struct Row {
  std::string uuid, workspace, link;
  bool completed = true;
  std::optional<std::string> email;
  int64_t sort_micros = 0;
  std::string text;  // what a search looks in (search_text)
};

// Texts of responses and the terms searched for, with what each term must find: cases folded
// (accented capitals too), LIKE's wildcards taken literally, terms too short for keys.
const std::vector<std::string> kTexts = {
    "The Zebracorn crossing", "École d'été, Élan", "100% sure_thing",      "ab", "", "ÀBC zèbre",
    "zebracorn\nsecond line", "back\\slash",       "The zebracorn's a b c"};
const std::vector<std::string> kTerms = {
    "zebracorn", "ZEBRA", "cross", "ÉCOLE",  "été", "d'é",     "100%",   "e_t", "% s",
    "ab",        "b",     "zè",    "àbc zè", "xyz", "orn cr",  "_",      "%",   "k\\s",
    "n\nsec",    "e zeb", "n c",   "a b",    "-",   "sure_th", "100% s", "ing", "zebracorn's"};

// Lower case as PostgreSQL's lower() makes it, for the texts above.
std::string folded(std::string text) {
  for (auto [upper, lower] : {std::pair<std::string, std::string>{"É", "é"}, {"À", "à"}}) {
    for (auto at = text.find(upper); at != std::string::npos; at = text.find(upper, at)) {
      text.replace(at, upper.size(), lower);
    }
  }
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string uuidOf(int i) {
  char text[37];
  std::snprintf(text, sizeof text, "%08x-0000-4000-8000-%012x", static_cast<unsigned>(i * 7919),
                static_cast<unsigned>(i));
  return text;
}

// Rows of two links of one workspace and one of another: a quarter in progress, a tenth
// without email, few distinct emails and submission times, so that ties are many.
std::vector<Row> makeRows(int count) {
  std::mt19937 random(29);
  std::vector<Row> rows;
  for (int i = 0; i < count; ++i) {
    Row r;
    r.uuid = uuidOf(i + 1);
    const int where = static_cast<int>(random() % 10);
    r.workspace = where < 9 ? kWorkspace : kOtherWorkspace;
    r.link = where < 6 ? kLink : where < 9 ? kOtherLink : kOtherWorkspaceLink;
    r.completed = random() % 4 != 0;
    if (random() % 10 != 0) r.email = "r" + std::to_string(random() % 20) + "@example.com";
    r.sort_micros = kEpoch + static_cast<int64_t>(random() % (count / 3 + 1)) * 1'000'000;
    r.text = kTexts[random() % kTexts.size()];
    rows.push_back(r);
  }
  return rows;
}

std::string literal(const std::optional<std::string>& text) {
  if (!text) return "NULL";
  std::string quoted = "'";
  for (char c : *text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

// The rows as the responses service stores them, with their links' counts.
void insert(pqxx::connection& c, const std::vector<Row>& rows) {
  std::string sql =
      "INSERT INTO responses.responses (uuid, workspace_uuid, link_uuid, session_id, token_hash,"
      " status, respondent_email, answers, search_text, started_at, submitted_at, sort_at) VALUES ";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const std::string at =
        "'epoch'::timestamptz + " + std::to_string(r.sort_micros) + " * interval '1 microsecond'";
    sql += (i ? ", (" : "(") + literal(r.uuid) + ", " + literal(r.workspace) + ", " +
           literal(r.link) + ", 's', 'h', " + (r.completed ? "'completed'" : "'in_progress'") +
           ", " + literal(r.email) + ", '[]', " + literal(r.text) + ", " + at + ", " +
           (r.completed ? at : "NULL") + ", " + at + ")";
  }
  exec(c, sql);
  exec(c,
       "INSERT INTO responses.link_counts (link_uuid, shard, workspace_uuid, started, completed)"
       " SELECT link_uuid, 0, workspace_uuid, count(*), count(submitted_at)"
       " FROM responses.responses GROUP BY link_uuid, workspace_uuid"
       " ON CONFLICT (link_uuid, shard) DO UPDATE SET started = EXCLUDED.started,"
       " completed = EXCLUDED.completed");
  exec(c, "VACUUM ANALYZE responses.responses");
}

// The filter's rows in the ordering's order, as the API defines it: by email with nulls last
// (first when descending), then submission time, then uuid.
std::vector<std::string> expected(const std::vector<Row>& rows, const responses::ResponseFilter& f,
                                  Ordering o) {
  std::vector<const Row*> matching;
  for (const auto& r : rows) {
    if (r.workspace != f.workspace_uuid || (!f.link_uuid.empty() && r.link != f.link_uuid)) {
      continue;
    }
    if ((f.status == StatusFilter::kCompleted && !r.completed) ||
        (f.status == StatusFilter::kInProgress && r.completed)) {
      continue;
    }
    if ((f.since_micros && r.sort_micros < *f.since_micros) ||
        (f.until_micros && r.sort_micros > *f.until_micros)) {
      continue;
    }
    if (folded(r.text).find(folded(f.search)) == std::string::npos) continue;
    matching.push_back(&r);
  }
  const bool by_email = o == Ordering::kEmailAsc || o == Ordering::kEmailDesc;
  const bool descending = o == Ordering::kSubmittedDesc || o == Ordering::kEmailDesc;
  std::sort(matching.begin(), matching.end(), [&](const Row* a, const Row* b) {
    // Ascending: nulls after every email.
    auto key = [by_email](const Row* r) {
      return std::make_tuple(by_email && !r->email, by_email ? r->email.value_or("") : "",
                             r->sort_micros, r->uuid);
    };
    return descending ? key(b) < key(a) : key(a) < key(b);
  });
  std::vector<std::string> out;
  for (const auto* r : matching) out.push_back(r->uuid);
  return out;
}

struct Lists {
  pg_test::ScratchDatabase db{"response_lists"};
  std::unique_ptr<pqxx::connection> connection = feedback::pg::connect(db.url());
  responses::PgResponsesStore store{*connection};
  FakeCounts counts;
  responses::evaluation::LocalEvaluator evaluator;
  std::optional<responses::ResponsesService> service;

  Lists() {
    responses::PgResponsesStore::prepare(*connection);
    // Generic plans, as a connection's prepared statements get once used a few times: the
    // plans whose estimates once made pages slow.
    exec(*connection, "SET plan_cache_mode = force_generic_plan");
    fresh();
  }
  // A service with no anchors yet.
  void fresh() { service.emplace(counts, evaluator); }

  // The page's uuids, or nullopt for a 404 (past the last page).
  std::optional<std::vector<std::string>> page(const responses::ResponseFilter& f, Ordering o,
                                               int number, int size) {
    v1::ListResponsesRequest request;
    request.mutable_caller()->mutable_workspace()->set_uuid(f.workspace_uuid);
    request.set_link_uuid(f.link_uuid);
    request.set_status(f.status == StatusFilter::kCompleted    ? "completed"
                       : f.status == StatusFilter::kInProgress ? "in_progress"
                                                               : "all");
    static constexpr const char* kOrderings[] = {"submitted_at", "-submitted_at",
                                                 "respondent_email", "-respondent_email"};
    request.set_ordering(kOrderings[static_cast<int>(o)]);
    if (f.since_micros) request.set_since_micros(*f.since_micros);
    if (f.until_micros) request.set_until_micros(*f.until_micros);
    request.set_search(f.search);
    request.mutable_page()->set_page(number);
    request.mutable_page()->set_page_size(size);
    try {
      const auto got = service->listResponses(store, request);
      std::vector<std::string> out;
      for (const auto& r : got.responses()) out.push_back(r.uuid());
      return out;
    } catch (const feedback::ApiError& e) {
      if (e.code() == ErrorCode::kInvalidPage) return std::nullopt;
      throw;
    }
  }
};

std::vector<std::string> slice(const std::vector<std::string>& all, int number, int size) {
  const auto from = std::min(all.size(), static_cast<std::size_t>((number - 1) * size));
  return {all.begin() + static_cast<long>(from),
          all.begin() + static_cast<long>(std::min(all.size(), from + size))};
}

}  // namespace

TEST_CASE("lists: every shape pages as the sort in memory does, sought or by offset", "[.pg]") {
  Lists lists;
  const auto rows = makeRows(400);
  insert(*lists.connection, rows);
  constexpr int kSize = 7;
  for (bool whole_workspace : {false, true}) {
    for (StatusFilter status :
         {StatusFilter::kCompleted, StatusFilter::kInProgress, StatusFilter::kAll}) {
      for (int bounds = 0; bounds < 4; ++bounds) {
        for (Ordering o : {Ordering::kSubmittedAsc, Ordering::kSubmittedDesc, Ordering::kEmailAsc,
                           Ordering::kEmailDesc}) {
          responses::ResponseFilter f;
          f.workspace_uuid = kWorkspace;
          if (!whole_workspace) f.link_uuid = kLink;
          f.status = status;
          if (bounds & 1) f.since_micros = kEpoch + 20'000'000;
          if (bounds & 2) f.until_micros = kEpoch + 110'000'000;
          const auto want = expected(rows, f, o);
          const int pages = std::max(1, static_cast<int>((want.size() + kSize - 1) / kSize));
          INFO("workspace " << whole_workspace << ", status " << static_cast<int>(status)
                            << ", bounds " << bounds << ", ordering " << static_cast<int>(o) << ", "
                            << want.size() << " rows");
          // Forward (each page after the first sought from the one before), then back.
          lists.fresh();
          for (int n = 1; n <= pages; ++n) {
            INFO("page " << n << " forward");
            CHECK(lists.page(f, o, n, kSize) == slice(want, n, kSize));
          }
          for (int n = pages; n >= 1; --n) {
            INFO("page " << n << " back");
            CHECK(lists.page(f, o, n, kSize) == slice(want, n, kSize));
          }
          // Each page alone, by its offset (from the nearer end).
          for (int n = 1; n <= pages; ++n) {
            lists.fresh();
            INFO("page " << n << " alone");
            CHECK(lists.page(f, o, n, kSize) == slice(want, n, kSize));
          }
          CHECK_FALSE(lists.page(f, o, pages + 1, kSize).has_value());
        }
      }
    }
  }
}

TEST_CASE("lists: a search finds what a case-insensitive substring match does", "[.pg]") {
  // Terms of three characters or more are looked up by the keys of their link (responses
  // migration 015), in one link or in each link of the workspace; shorter ones in every row.
  Lists lists;
  const auto rows = makeRows(300);
  insert(*lists.connection, rows);
  constexpr int kSize = 9;
  int found = 0;
  for (const auto& term : kTerms) {
    for (bool whole_workspace : {false, true}) {
      for (StatusFilter status : {StatusFilter::kCompleted, StatusFilter::kAll}) {
        responses::ResponseFilter f;
        f.workspace_uuid = kWorkspace;
        if (!whole_workspace) f.link_uuid = kLink;
        f.status = status;
        f.search = term;
        const auto want = expected(rows, f, Ordering::kSubmittedDesc);
        found += static_cast<int>(want.size());
        const int pages = std::max(1, static_cast<int>((want.size() + kSize - 1) / kSize));
        INFO("term '" << term << "', workspace " << whole_workspace << ", status "
                      << static_cast<int>(status) << ", " << want.size() << " rows");
        for (int n = 1; n <= pages; ++n) {
          INFO("page " << n);
          CHECK(lists.page(f, Ordering::kSubmittedDesc, n, kSize) == slice(want, n, kSize));
        }
      }
    }
  }
  CHECK(found > 1000);  // the terms find rows, not only nothing
}

TEST_CASE("search keys: a row that holds a term has every key of it, and plans use them", "[.pg]") {
  // The keys alone, without LIKE after them: a row they turned down that holds the term would
  // be missing from the list whatever LIKE says.
  Lists lists;
  insert(*lists.connection, makeRows(300));
  pqxx::nontransaction tx(*lists.connection);
  int keyed_terms = 0;
  for (const auto& term : kTerms) {
    INFO("term '" << term << "'");
    const auto row = tx.exec_params1(
        "SELECT count(*) FILTER (WHERE strpos(search_text, lower($1)) > 0),"
        " count(*) FILTER (WHERE strpos(search_text, lower($1)) > 0 AND NOT search_keys @>"
        "  responses.term_keys(responses.link_search_key(link_uuid), lower($1))),"
        " count(*) FILTER (WHERE search_keys @>"
        "  responses.term_keys(responses.link_search_key(link_uuid), lower($1))),"
        " (SELECT cardinality(responses.term_trigrams(lower($1))))"
        " FROM responses.responses",
        term);
    CHECK(row[1].as<int>() == 0);
    if (row[3].as<int>() > 0) {
      ++keyed_terms;
      // Keys turn rows down: no more rows have them than hold a trigram-alike of the term.
      CHECK(row[2].as<int>() >= row[0].as<int>());
      CHECK(row[2].as<int>() < 300);
    }
  }
  CHECK(keyed_terms >= 15);
  CHECK(tx.exec1("SELECT count(*) FROM responses.responses WHERE search_keys @>"
                 " responses.term_keys(responses.link_search_key(link_uuid), 'xyz')")[0]
            .as<int>() == 0);
  // The statements of a search read the keys' index, in one link and in each of a workspace's,
  // once the link holds more than a scan of it would cost.
  tx.exec(std::string("INSERT INTO responses.responses (uuid, workspace_uuid, link_uuid,"
                      " session_id, token_hash, status, answers, search_text, started_at,"
                      " submitted_at, sort_at) SELECT gen_random_uuid(), '") +
          kWorkspace + "', '" + kLink +
          "', 's', 'h', 'completed', '[]', 'a filler row ' || i, now(), now(), now()"
          " FROM generate_series(1, 20000) AS i");
  tx.exec("VACUUM ANALYZE responses.responses");  // the pending list merged, as in service
  for (bool one_link : {true, false}) {
    responses::ResponseFilter f;
    f.workspace_uuid = kWorkspace;
    if (one_link) f.link_uuid = kLink;
    f.search = "Zebracorn";
    const auto shape = responses::shapeOf(f, responses::QueryKind::kCounted);
    REQUIRE(shape.search_keys);
    const std::string sql = responses::searchSql(tx, shape, f, 0, 20);
    std::string plan;
    for (const auto& line : tx.exec("EXPLAIN " + sql)) plan += line[0].c_str() + std::string("\n");
    INFO(plan);
    CHECK(plan.find("responses_search_keys") != std::string::npos);
  }
}

TEST_CASE("lists: a page sought after the list changed is read by offset, exactly", "[.pg]") {
  Lists lists;
  auto rows = makeRows(200);
  insert(*lists.connection, rows);
  responses::ResponseFilter f;
  f.workspace_uuid = kWorkspace;
  f.link_uuid = kLink;
  const auto before = expected(rows, f, Ordering::kSubmittedDesc);
  CHECK(lists.page(f, Ordering::kSubmittedDesc, 2, 10) == slice(before, 2, 10));
  // A newer response, counted as the service counts one: every later row moves by one.
  Row newer{uuidOf(100'000), kWorkspace, kLink, true, "new@example.com", kEpoch + 999'000'000, ""};
  rows.push_back(newer);
  insert(*lists.connection, {newer});
  const auto after = expected(rows, f, Ordering::kSubmittedDesc);
  REQUIRE(after != before);
  CHECK(lists.page(f, Ordering::kSubmittedDesc, 3, 10) == slice(after, 3, 10));
}

TEST_CASE(
    "lists: what a first page, a sought page and an email-ordered page cost stays put "
    "as the table grows",
    "[.pg]") {
  Lists lists;
  const std::string ws = kWorkspace, link = kLink;
  // The statements measured: a first page (counted) or a sought one, of one status or every
  // status, by submission time or email.
  struct Measured {
    const char* name;
    responses::QueryKind kind;
    bool one_status;
    Ordering order;
  };
  const std::vector<Measured> measured = {
      {"first page", responses::QueryKind::kCounted, true, Ordering::kSubmittedDesc},
      {"first page, every status", responses::QueryKind::kCounted, false, Ordering::kSubmittedDesc},
      {"first page by email", responses::QueryKind::kCounted, true, Ordering::kEmailAsc},
      {"first page by email, every status", responses::QueryKind::kCounted, false,
       Ordering::kEmailDesc},
      {"a page sought", responses::QueryKind::kSeek, true, Ordering::kSubmittedDesc},
      {"a page sought, every status", responses::QueryKind::kSeek, false, Ordering::kSubmittedDesc},
  };
  // Each statement as the store runs it (response_queries.h), on a link of `rows` responses
  // beside as many of another link.
  auto costs = [&](int rows) {
    exec(*lists.connection, "DEALLOCATE ALL");
    exec(*lists.connection, "TRUNCATE responses.responses, responses.link_counts");
    exec(*lists.connection,
         "INSERT INTO responses.responses (uuid, workspace_uuid, link_uuid, session_id,"
         " token_hash, status, respondent_email, answers, search_text, started_at,"
         " submitted_at, sort_at) SELECT gen_random_uuid(), '" +
             ws + "', CASE WHEN i % 2 = 0 THEN '" + link + "'::uuid ELSE '" + kOtherLink +
             "'::uuid END, 's', 'h', CASE WHEN i % 5 = 0 THEN 'in_progress' ELSE 'completed'"
             " END, 'r' || (i % 997) || '@example.com', repeat('x', 300), '', t, t, t FROM"
             " generate_series(1, " +
             std::to_string(2 * rows) +
             ") AS i, LATERAL (SELECT now() - i * interval '1 second' AS t) AS times");
    exec(*lists.connection,
         "INSERT INTO responses.link_counts SELECT link_uuid, 0, workspace_uuid, count(*),"
         " count(*) FILTER (WHERE status = 'completed') FROM responses.responses"
         " GROUP BY 1, 3");
    exec(*lists.connection, "VACUUM ANALYZE responses.responses");
    // A row in the middle of the link, to seek from.
    std::string anchor;
    {
      pqxx::nontransaction tx(*lists.connection);
      const auto middle = tx.exec1(
          "SELECT (extract(epoch FROM sort_at) * 1000000)::bigint, uuid FROM responses.responses"
          " WHERE link_uuid = '" +
          link + "' AND status = 'completed' ORDER BY sort_at DESC, uuid DESC OFFSET " +
          std::to_string(rows * 2 / 5) + " LIMIT 1");
      anchor = middle[0].as<std::string>() + ", '" + middle[1].as<std::string>() + "'";
    }
    std::vector<long> pages;
    for (std::size_t i = 0; i < measured.size(); ++i) {
      const auto& m = measured[i];
      const std::string name = "measured_" + std::to_string(i);
      exec(*lists.connection,
           "PREPARE " + name + " AS " +
               responses::statementSql(
                   {.kind = m.kind, .link = true, .one_status = m.one_status, .order = m.order}));
      std::string args = "('" + ws + "', '" + link + "'";
      if (m.one_status) args += ", 'completed'";
      if (m.kind == responses::QueryKind::kSeek) args += ", " + anchor;
      pages.push_back(pagesRead(*lists.connection, "EXECUTE " + name + args + ", 20, 0)"));
    }
    return pages;
  };
  const auto small = costs(2'000), large = costs(40'000);
  for (std::size_t i = 0; i < small.size(); ++i) {
    INFO(measured[i].name << ": " << small[i] << " pages at 2,000 responses, " << large[i]
                          << " at 40,000");
    CHECK(small[i] > 0);
    // One more level of each index read is all the growth allowed.
    CHECK(large[i] <= small[i] + 12);
  }
}

TEST_CASE("lists: what a search costs stays put as other links and workspaces grow", "[.pg]") {
  // The trigram index this replaced kept one posting list per trigram for every link: a rare
  // word searched in one link read the entries of every other link that held it.
  Lists lists;
  const std::string ws = kWorkspace, link = kLink;
  // Beside the link's 1,000 responses, of which 10 mention the word: `others` in another link
  // of the workspace that share most of its trigrams, and as many in another workspace that
  // mention it.
  auto costs = [&](int others) {
    exec(*lists.connection, "TRUNCATE responses.responses, responses.link_counts");
    auto add = [&](const std::string& workspace, const std::string& in, int count,
                   const std::string& text) {
      exec(*lists.connection,
           "INSERT INTO responses.responses (uuid, workspace_uuid, link_uuid, session_id,"
           " token_hash, status, answers, search_text, started_at, submitted_at, sort_at)"
           " SELECT gen_random_uuid(), '" +
               workspace + "', '" + in + "', 's', 'h', 'completed', '[]', '" + text +
               " ' || i, t, t, t FROM generate_series(1, " + std::to_string(count) +
               ") AS i, LATERAL (SELECT now() - i * interval '1 second' AS t) AS times");
    };
    add(ws, link, 990, "a record of the core track");
    add(ws, link, 10, "the zebracorn''s record");
    add(ws, kOtherLink, others, "the zebra''s corn record");
    add(kOtherWorkspace, kOtherWorkspaceLink, others, "zebracorn, according to the record");
    exec(*lists.connection,
         "INSERT INTO responses.link_counts SELECT link_uuid, 0, workspace_uuid, count(*),"
         " count(*) FROM responses.responses GROUP BY 1, 3");
    exec(*lists.connection, "VACUUM ANALYZE responses.responses");
    std::vector<long> pages;
    for (bool one_link : {true, false}) {
      const std::string sql = responses::statementSql({.kind = responses::QueryKind::kCounted,
                                                       .link = one_link,
                                                       .one_status = true,
                                                       .search = true,
                                                       .search_keys = true,
                                                       .order = Ordering::kSubmittedDesc});
      const std::string name = one_link ? "searched_link" : "searched_workspace";
      exec(*lists.connection, "DEALLOCATE ALL");
      exec(*lists.connection, "PREPARE " + name + " AS " + sql);
      std::string args = "('" + ws + "'";
      if (one_link) args += ", '" + link + "'";
      args += ", 'completed', '%zebracorn%', 'ZEBRACORN', 20, 0)";
      pages.push_back(pagesRead(*lists.connection, "EXECUTE " + name + args));
    }
    return pages;
  };
  // Planned for its values, as runQuery sends them.
  exec(*lists.connection, "SET plan_cache_mode = force_custom_plan");
  // Both with posting trees for the other link's keys (a few thousand entries make one).
  const auto small = costs(8'000), large = costs(40'000);
  const char* names[] = {"the link", "the workspace"};
  for (std::size_t i = 0; i < small.size(); ++i) {
    INFO(names[i] << ": " << small[i] << " pages beside 8,000 responses, " << large[i]
                  << " beside 40,000");
    CHECK(small[i] > 0);
    // One more level of each index read is all the growth allowed: the primary key's, read
    // once for each of the page's ten rows, counts in every node above it (pagesRead).
    CHECK(large[i] <= small[i] + 4 * 10 + 12);
  }
}
