// Erasure's rules (docs/api.md "Erasure and retention") on an in-memory store: what each call
// selects, its errors, the batches of a respondent's erasure, the count protocol around each
// batch (begun before the commit, settled after, released on failure) and the audit's eraser.
#include "services/responses/erasure/response_erasure.h"

#include <catch2/catch.hpp>
#include <map>

#include "common/core/errors.h"
#include "tests/unit/services/responses/responses_fakes.h"

namespace {

namespace responses = feedback::responses;
namespace v1 = feedback::responses::v1;
using feedback::ApiError;
using feedback::ErrorCode;
using responses_test::FakeCounts;

constexpr const char* kWs = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";
constexpr const char* kOtherWs = "7f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";
constexpr const char* kLinkA = "0e0e0e0e-1111-4222-8333-444455556666";
constexpr const char* kLinkB = "1e0e0e0e-1111-4222-8333-444455556666";

struct Row {
  std::string workspace;
  std::string link;
  std::string email;
  int64_t time = 0;  // microseconds
};

// Responses by uuid; a batch erases the first `limit` rows its selection names, as PostgreSQL
// would, unless `fail_next` (then nothing is erased, as a rolled-back transaction).
class FakeErasureStore final : public responses::ErasureStore {
 public:
  std::map<std::string, Row> rows;
  std::vector<int> batch_sizes;
  bool fail_next = false;
  std::vector<responses::Retention> kept;

  std::vector<responses::ErasedResponse> eraseBatch(
      const responses::ErasureSelection& s, int limit,
      const std::function<void(const std::vector<responses::ErasedResponse>&)>& locked) override {
    std::vector<responses::ErasedResponse> out;
    for (const auto& [uuid, row] : rows) {
      if (static_cast<int>(out.size()) >= limit) break;
      if (row.workspace != s.workspace_uuid) continue;
      bool named = false;
      if (s.response_uuid) named = uuid == *s.response_uuid && row.link == s.link_uuid;
      if (s.email) named = lower(row.email) == lower(*s.email) && !row.email.empty();
      if (s.older_than_micros) named = row.time < *s.older_than_micros;
      if (named) out.push_back({uuid, row.link});
    }
    if (out.empty()) return out;
    locked(out);
    if (fail_next) {
      fail_next = false;
      throw ApiError(ErrorCode::kServiceUnavailable);
    }
    for (const auto& e : out) rows.erase(e.uuid);
    batch_sizes.push_back(static_cast<int>(out.size()));
    return out;
  }
  std::vector<responses::Retention> retentions() override { return kept; }
  std::optional<int64_t> oldestResponseMicros(const std::string& ws) override {
    std::optional<int64_t> out;
    for (const auto& [uuid, row] : rows) {
      if (row.workspace == ws && (!out || row.time < *out)) out = row.time;
    }
    return out;
  }

 private:
  static std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
};

std::string uuidNumber(int n) {
  char out[37];
  std::snprintf(out, sizeof out, "00000000-0000-4000-8000-%012d", n);
  return out;
}

feedback::common::v1::Caller caller(const char* ws = kWs) {
  feedback::common::v1::Caller c;
  c.mutable_workspace()->set_uuid(ws);
  c.set_token_uuid("9e0e0e0e-1111-4222-8333-444455556666");
  c.set_token_prefix("sk_live_abcd");
  return c;
}

struct Fixture {
  FakeErasureStore store;
  FakeCounts counts;
  feedback::Counters counters;
  responses::ResponseErasure erasure{counts, counters, 3};

  void add(int n, Row row) { store.rows[uuidNumber(n)] = std::move(row); }

  v1::DeleteResponseRequest deletion(int n, const char* link = kLinkA, const char* ws = kWs) {
    v1::DeleteResponseRequest r;
    *r.mutable_caller() = caller(ws);
    r.set_link_uuid(link);
    r.set_response_uuid(uuidNumber(n));
    return r;
  }
  v1::EraseRespondentRequest byEmail(const char* email) {
    v1::EraseRespondentRequest r;
    *r.mutable_caller() = caller();
    r.set_respondent_email(email);
    return r;
  }
};

ErrorCode codeOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const ApiError& e) {
    return e.code();
  }
  FAIL("no error");
  return ErrorCode::kInternalError;
}

}  // namespace

TEST_CASE("deleting a response erases it alone and settles its link's count") {
  Fixture f;
  f.add(1, {kWs, kLinkA, "a@example.com"});
  f.add(2, {kWs, kLinkA, "b@example.com"});
  f.erasure.deleteResponse(f.store, f.deletion(1));
  CHECK(f.store.rows.count(uuidNumber(1)) == 0);
  CHECK(f.store.rows.count(uuidNumber(2)) == 1);
  REQUIRE(f.counts.begun.size() == 1);
  CHECK(f.counts.begun[0] == "rm:" + uuidNumber(1));
  REQUIRE(f.counts.removals.size() == 1);
  CHECK(f.counts.removals[0] == std::make_pair(std::string(kLinkA), 1));
  CHECK(f.counts.open() == 0);
  CHECK(f.counters.render().find("responses_erased_total{reason=\"deleted\"} 1") !=
        std::string::npos);
}

TEST_CASE(
    "deleting an unknown, already deleted, other link's or other workspace's response is 404") {
  Fixture f;
  f.add(1, {kWs, kLinkA, ""});
  CHECK(codeOf([&] { f.erasure.deleteResponse(f.store, f.deletion(1, kLinkB)); }) ==
        ErrorCode::kNotFound);
  CHECK(codeOf([&] { f.erasure.deleteResponse(f.store, f.deletion(1, kLinkA, kOtherWs)); }) ==
        ErrorCode::kNotFound);
  CHECK(codeOf([&] { f.erasure.deleteResponse(f.store, f.deletion(7)); }) == ErrorCode::kNotFound);
  auto malformed = f.deletion(1);
  malformed.set_response_uuid("not-a-uuid");
  CHECK(codeOf([&] { f.erasure.deleteResponse(f.store, malformed); }) == ErrorCode::kNotFound);
  CHECK(f.store.rows.size() == 1);
  f.erasure.deleteResponse(f.store, f.deletion(1));
  CHECK(codeOf([&] { f.erasure.deleteResponse(f.store, f.deletion(1)); }) == ErrorCode::kNotFound);
  CHECK(f.counts.begun.size() == 1);
}

TEST_CASE("a respondent's erasure takes every batch, case-insensitively, across links") {
  Fixture f;
  for (int i = 1; i <= 7; ++i) {
    f.add(i, {kWs, i % 2 ? kLinkA : kLinkB, i % 3 ? "Ann@Example.com" : "ann@example.com"});
  }
  f.add(8, {kWs, kLinkA, "bob@example.com"});
  f.add(9, {kOtherWs, kLinkA, "ann@example.com"});
  auto erased = f.erasure.eraseRespondent(f.store, f.byEmail("ANN@example.com"));
  CHECK(erased.erased() == 7);
  CHECK(f.store.batch_sizes == std::vector<int>{3, 3, 1});
  CHECK(f.store.rows.size() == 2);
  CHECK(f.counts.open() == 0);
  // Each batch settles each of its links once, as committed.
  int settled = 0;
  for (const auto& [link, n] : f.counts.removals) settled += n;
  CHECK(settled == 7);
  CHECK(f.erasure.eraseRespondent(f.store, f.byEmail("ann@example.com")).erased() == 0);
}

TEST_CASE("a respondent's erasure needs an email address") {
  Fixture f;
  v1::EraseRespondentRequest missing;
  *missing.mutable_caller() = caller();
  CHECK(codeOf([&] { f.erasure.eraseRespondent(f.store, missing); }) ==
        ErrorCode::kValidationError);
  CHECK(codeOf([&] { f.erasure.eraseRespondent(f.store, f.byEmail("not an email")); }) ==
        ErrorCode::kValidationError);
  CHECK(codeOf([&] { f.erasure.eraseRespondent(f.store, f.byEmail("")); }) ==
        ErrorCode::kValidationError);
}

TEST_CASE("a batch that fails still drops its links' counts: its commit may have happened") {
  Fixture f;
  f.add(1, {kWs, kLinkA, "ann@example.com"});
  f.store.fail_next = true;
  CHECK(codeOf([&] { f.erasure.eraseRespondent(f.store, f.byEmail("ann@example.com")); }) ==
        ErrorCode::kServiceUnavailable);
  REQUIRE(f.counts.removals.size() == 1);
  CHECK(f.counts.removals[0] == std::make_pair(std::string(kLinkA), 1));
  CHECK(f.counts.open() == 0);
  CHECK(f.store.rows.size() == 1);
}

TEST_CASE("retention erases what is older than the workspace's days, and only that") {
  Fixture f;
  const int64_t day = 86400LL * 1000000;
  const int64_t now = 100 * day;
  for (int i = 1; i <= 5; ++i) f.add(i, {kWs, kLinkA, "", now - 31 * day});
  f.add(6, {kWs, kLinkA, "", now - 29 * day});
  f.add(7, {kOtherWs, kLinkA, "", now - 90 * day});
  const auto erased = f.erasure.eraseExpired(f.store, {kWs, 30}, now, [] { return true; });
  CHECK(erased == 5);
  CHECK(f.store.rows.size() == 2);
  CHECK(f.store.rows.count(uuidNumber(6)) == 1);
  CHECK(f.counters.render().find("responses_erased_total{reason=\"retention\"} 5") !=
        std::string::npos);
  // Told to stop, it erases no further batch.
  f.add(8, {kWs, kLinkA, "", now - 40 * day});
  CHECK(f.erasure.eraseExpired(f.store, {kWs, 30}, now, [] { return false; }) == 0);
  CHECK(f.store.rows.count(uuidNumber(8)) == 1);
}

TEST_CASE("the audit names the key's prefix, or its uuid when the caller has none") {
  auto c = caller();
  CHECK(responses::eraserOf(c) == "sk_live_abcd");
  c.clear_token_prefix();
  CHECK(responses::eraserOf(c) == "key 9e0e0e0e-1111-4222-8333-444455556666");
}
