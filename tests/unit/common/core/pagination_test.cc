#include "common/core/pagination.h"

#include <catch2/catch.hpp>

#include "common/core/errors.h"

using feedback::ApiError;
using feedback::ErrorCode;

namespace {
struct PageRequest {
  int page_number, size;
  int page() const { return page_number; }
  int page_size() const { return size; }
};
PageRequest request(int page, int size) {
  return {page, size};
}
}  // namespace

TEST_CASE("pagination: defaults, cap and offset", "[pagination]") {
  auto p = feedback::normalizePage(request(0, 0));
  CHECK(p.number == 1);
  CHECK(p.size == 20);
  auto capped = feedback::normalizePage(request(3, 500));
  CHECK(capped.size == 100);
  CHECK(capped.offset() == 200);
}

TEST_CASE("pagination: pages past the end are INVALID_PAGE, page 1 always exists", "[pagination]") {
  CHECK_NOTHROW(feedback::requirePageExists(feedback::normalizePage(request(1, 20)), 0));
  CHECK_NOTHROW(feedback::requirePageExists(feedback::normalizePage(request(2, 10)), 11));
  try {
    feedback::requirePageExists(feedback::normalizePage(request(2, 10)), 10);
    FAIL("page 2 of 10 items at 10 per page accepted");
  } catch (const ApiError& e) {
    CHECK(e.code() == ErrorCode::kInvalidPage);
  }
  CHECK_THROWS_AS(feedback::normalizePage(request(-1, 0)), ApiError);
}
