#include "services/responses/response_writer.h"

#include <catch2/catch.hpp>

#include "common/core/errors.h"
#include "common/core/time.h"

namespace responses = feedback::responses;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

// Stores what it is given; can fail the insert. Counts reads of link counts.
class FakeStore final : public responses::ResponsesStore {
 public:
  bool fail_insert = false;
  std::vector<std::string> stored;  // response uuids
  int count_reads = 0;
  void insertResponses(const std::vector<const responses::NewResponse*>& batch) override {
    if (fail_insert) throw std::runtime_error("insert failed");
    for (const auto* r : batch) stored.push_back(r->stored.response.uuid());
  }
  bool updateResponse(
      const std::string&, const std::string&,
      const std::function<std::optional<Change>(responses::StoredResponse&)>&) override {
    return false;
  }
  std::optional<responses::StoredResponse> findResponse(const std::string&,
                                                        const std::string&) override {
    return std::nullopt;
  }
  Count countResponses(const responses::ResponseFilter&) override { return {}; }
  Rows listResponses(const responses::ResponseFilter&, responses::Ordering, int64_t, int) override {
    return {};
  }
  Rows listAfter(const responses::ResponseFilter&, responses::Ordering, const responses::Anchor&,
                 int64_t, int) override {
    return {};
  }
  CountedPage listCounted(const responses::ResponseFilter&, responses::Ordering, int64_t,
                          int) override {
    return {};
  }
  std::map<std::string, int64_t> completedCounts(const std::string&,
                                                 const std::vector<std::string>& links) override {
    ++count_reads;
    std::map<std::string, int64_t> out;
    for (const auto& l : links) out[l] = 100;
    return out;
  }
  void forEachSummaryFacts(const std::string&, const std::string&, std::optional<int64_t>,
                           std::optional<int64_t>, const std::function<void(const FactsLayouts&)>&,
                           const std::function<void(const FactsBatch&)>&) override {}
  int64_t startedCount(const std::string&, const std::string&, std::optional<int64_t>,
                       std::optional<int64_t>) override {
    return 0;
  }
  DayCounts completedPerDay(const std::string&, const std::string&, std::optional<int64_t>,
                            std::optional<int64_t>) override {
    return {};
  }
  void forEachResponse(const responses::ResponseFilter&, responses::Ordering, int,
                       const std::function<bool(ResponseBatch&)>&) override {}
};

class FakeCounts final : public responses::LinkCounts {
 public:
  std::set<std::string> unavailable;  // links whose begin fails
  std::map<std::string, int64_t> begun;
  std::vector<std::tuple<std::string, std::optional<int64_t>, int64_t>> settled;
  const int64_t began_ms = feedback::nowMicros() / 1000;
  void begin(const std::string& link, const std::vector<std::string>& ids) override {
    if (unavailable.count(link)) throw ApiError(ErrorCode::kServiceUnavailable);
    begun[link] += static_cast<int64_t>(ids.size());
  }
  void settle(const std::string& link, std::optional<responses::CountRead> count,
              const std::vector<std::string>& ids) override {
    // The count was read after the commit, which came after the test began.
    if (count) CHECK(count->started_ms >= began_ms);
    settled.emplace_back(link, count ? std::optional(count->completed) : std::nullopt,
                         static_cast<int64_t>(ids.size()));
  }
  void settleRemoval(const std::string&, const std::vector<std::string>&) override {}
};

responses::NewResponse response(const std::string& uuid, const std::string& link, bool completed) {
  responses::NewResponse r;
  r.stored.workspace_uuid = "ws";
  r.stored.response.set_uuid(uuid);
  r.stored.response.set_link_uuid(link);
  r.stored.response.set_started_at_micros(1);
  if (completed) r.stored.response.set_submitted_at_micros(2);
  return r;
}

}  // namespace

TEST_CASE("response writer: a batch begins each link once and settles it after the commit",
          "[responses]") {
  FakeStore store;
  FakeCounts counts;
  auto a1 = response("a1", "A", true), a2 = response("a2", "A", true),
       b1 = response("b1", "B", true), started = response("s1", "A", false);
  std::vector<std::exception_ptr> errors;
  responses::writeBatch(store, counts, {&a1, &a2, &b1, &started}, errors);
  CHECK(std::none_of(errors.begin(), errors.end(), [](auto& e) { return bool(e); }));
  // In link order, so that concurrent batches lock shared count rows alike.
  CHECK(store.stored == std::vector<std::string>{"a1", "a2", "s1", "b1"});
  CHECK(counts.begun == std::map<std::string, int64_t>{{"A", 2}, {"B", 1}});
  CHECK(store.count_reads == 1);  // one read for the workspace's links
  CHECK(counts.settled.size() == 2);
  CHECK(counts.settled[0] ==
        std::make_tuple(std::string("A"), std::optional<int64_t>(100), int64_t{2}));
}

TEST_CASE("response writer: a link whose count cannot begin is refused alone", "[responses]") {
  FakeStore store;
  FakeCounts counts;
  counts.unavailable = {"B"};
  auto a1 = response("a1", "A", true), b1 = response("b1", "B", true),
       b_started = response("b2", "B", false);
  std::vector<std::exception_ptr> errors;
  responses::writeBatch(store, counts, {&a1, &b1, &b_started}, errors);
  CHECK_FALSE(errors[0]);
  REQUIRE(errors[1]);
  CHECK_THROWS_AS(std::rethrow_exception(errors[1]), ApiError);
  CHECK_FALSE(errors[2]);  // a response in progress changes no count
  CHECK(store.stored == std::vector<std::string>{"a1", "b2"});
}

TEST_CASE("response writer: a failed insert stores nothing and releases the links", "[responses]") {
  FakeStore store;
  FakeCounts counts;
  store.fail_insert = true;
  auto a1 = response("a1", "A", true), a2 = response("a2", "A", true);
  std::vector<std::exception_ptr> errors;
  responses::writeBatch(store, counts, {&a1, &a2}, errors);
  CHECK(errors[0]);
  CHECK(errors[1]);
  CHECK(store.stored.empty());
  REQUIRE(counts.settled.size() == 1);
  CHECK(counts.settled[0] ==
        std::make_tuple(std::string("A"), std::optional<int64_t>(), int64_t{2}));
  responses::DirectResponseWriter direct(store, counts);
  CHECK_THROWS_AS(direct.writeNow(response("a3", "A", true)), std::runtime_error);
}
