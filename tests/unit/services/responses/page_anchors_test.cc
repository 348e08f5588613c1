#include "services/responses/page_anchors.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using feedback::responses::Ordering;
using feedback::responses::PageAnchors;
using feedback::responses::ResponseFilter;
using feedback::responses::StatusFilter;
namespace v1 = feedback::responses::v1;

namespace {

// Rows at offsets from..to of a list whose row at offset i was submitted at 1000 - i.
std::vector<v1::Response> rows(int from, int to) {
  std::vector<v1::Response> out;
  for (int i = from; i <= to; ++i) {
    v1::Response r;
    r.set_uuid("row-" + std::to_string(i));
    r.set_submitted_at_micros(1000 - i);
    out.push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("page anchors: the nearest anchor before or after a page, within the skip allowed",
          "[responses]") {
  PageAnchors anchors;
  anchors.record("list", 7, 100, rows(100, 109));
  auto next = anchors.find("list", 7, 110, 10);
  REQUIRE(next);
  CHECK(next->anchor.uuid == "row-109");
  CHECK(next->anchor.sort_micros == 891);
  CHECK(next->skip == 0);
  CHECK_FALSE(next->reversed);

  auto previous = anchors.find("list", 7, 90, 10);
  REQUIRE(previous);
  CHECK(previous->anchor.uuid == "row-100");
  CHECK(previous->skip == 0);
  CHECK(previous->reversed);

  auto ahead = anchors.find("list", 7, 150, 10);
  REQUIRE(ahead);
  CHECK(ahead->anchor.uuid == "row-109");
  CHECK(ahead->skip == 40);
  CHECK_FALSE(ahead->reversed);

  CHECK(anchors.find("list", 7, 110 + PageAnchors::kMaxSkip, 10));
  CHECK_FALSE(anchors.find("list", 7, 111 + PageAnchors::kMaxSkip, 10));
  CHECK_FALSE(anchors.find("another list", 7, 110, 10));
}

TEST_CASE("page anchors: a list read at another version forgets its anchors", "[responses]") {
  PageAnchors anchors;
  anchors.record("list", 7, 0, rows(0, 9));
  CHECK_FALSE(anchors.find("list", 8, 10, 10));
  CHECK_FALSE(anchors.find("list", 7, 10, 10));
  anchors.record("list", 8, 0, rows(0, 9));
  anchors.record("list", 9, 20, rows(20, 29));
  // Only the page read at 9 is left to seek from.
  auto found = anchors.find("list", 9, 10, 10);
  REQUIRE(found);
  CHECK(found->anchor.uuid == "row-20");
  CHECK(found->reversed);
}

TEST_CASE("page anchors: each list keeps its most recent anchors, and lists are bounded",
          "[responses]") {
  PageAnchors anchors;
  for (int page = 0; page < 300; ++page) {
    anchors.record("list", 1, page * 10, rows(page * 10, page * 10 + 9));
  }
  // Two anchors a page: those of the last kAnchorsPerList / 2 pages.
  const int64_t oldest = (300 - static_cast<int64_t>(PageAnchors::kAnchorsPerList) / 2) * 10;
  CHECK(anchors.find("list", 1, 3000, 10));
  CHECK(anchors.find("list", 1, oldest - PageAnchors::kMaxSkip - 1, 1));
  CHECK_FALSE(anchors.find("list", 1, oldest - PageAnchors::kMaxSkip - 2, 1));
  for (std::size_t i = 0; i <= PageAnchors::kLists; ++i) {
    anchors.record("list " + std::to_string(i), 1, 0, rows(0, 0));
  }
  CHECK_FALSE(anchors.find("list", 1, 3000, 10));
}

TEST_CASE("page anchors: only lists sorted by submission time without search are sought",
          "[responses]") {
  ResponseFilter filter;
  filter.workspace_uuid = "ws";
  filter.link_uuid = "link";
  const auto key = PageAnchors::listKey(filter, Ordering::kSubmittedDesc);
  REQUIRE(key);
  CHECK(*key != *PageAnchors::listKey(filter, Ordering::kSubmittedAsc));
  auto other = filter;
  other.status = StatusFilter::kAll;
  CHECK(*key != *PageAnchors::listKey(other, Ordering::kSubmittedDesc));
  other = filter;
  other.since_micros = 0;
  CHECK(*key != *PageAnchors::listKey(other, Ordering::kSubmittedDesc));
  CHECK_FALSE(PageAnchors::listKey(filter, Ordering::kEmailAsc));
  other = filter;
  other.search = "x";
  CHECK_FALSE(PageAnchors::listKey(other, Ordering::kSubmittedDesc));
}
