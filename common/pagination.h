#pragma once
// Page arithmetic shared by every list endpoint (API-CONTRACT.md section 4).

#include <cstdint>

#include "feedback/common/v1/common.pb.h"

namespace feedback {

inline constexpr int kDefaultPageSize = 20;
inline constexpr int kMaxPageSize = 100;

struct Page {
  int number = 1;
  int size = kDefaultPageSize;
  int64_t offset() const { return static_cast<int64_t>(number - 1) * size; }
};

// Applies defaults and the page_size cap; throws ApiError(kInvalidPagination) on negatives.
Page normalizePage(const feedback::common::v1::PageRequest& request);
// Throws ApiError(kInvalidPage) when `page` lies past the last page of `count` items
// (page 1 of an empty list exists).
void requirePageExists(const Page& page, int64_t count);

}  // namespace feedback
