#include "common/core/pagination.h"

#include <algorithm>

#include "common/core/errors.h"

namespace feedback {

Page normalizePage(int page_number, int page_size) {
  if (page_number < 0 || page_size < 0) throw ApiError(ErrorCode::kInvalidPagination);
  Page page;
  if (page_number > 0) page.number = page_number;
  if (page_size > 0) page.size = std::min(page_size, kMaxPageSize);
  return page;
}

void requirePageExists(const Page& page, int64_t count) {
  if (page.number > 1 && page.offset() >= count) {
    throw ApiError(ErrorCode::kInvalidPage,
                   "Page " + std::to_string(page.number) + " is past the last page.");
  }
}

}  // namespace feedback
