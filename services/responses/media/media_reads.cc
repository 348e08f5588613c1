#include "services/responses/media/media_reads.h"

#include <algorithm>

#include "common/api/media_urls.h"

namespace feedback::responses {

v1::MediaHeader readHeader(const BlobInfo& info, const v1::ReadMediaRequest& request) {
  v1::MediaHeader header;
  header.set_content_type(info.content_type);
  header.set_file_name(info.file_name);
  header.set_size_bytes(info.size_bytes);
  header.set_etag(info.sha256);
  ByteRange range{0, info.size_bytes};
  const bool current =
      request.if_range().empty() || request.if_range() == api::quotedTag(info.sha256);
  if (request.has_range() && current) {
    ByteRangeSpec spec;
    if (request.range().has_first()) spec.first = request.range().first();
    if (request.range().has_last()) spec.last = request.range().last();
    if (auto resolved = resolveByteRange(spec, info.size_bytes)) {
      range = *resolved;
      header.set_partial(true);
    } else {
      header.set_unsatisfiable(true);
      range = {};
    }
  }
  header.set_range_first(range.first);
  header.set_range_length(range.length);
  header.set_range_resolved(true);
  return header;
}

std::vector<ChunkSlice> slicesOf(const std::vector<int64_t>& chunk_sizes, ByteRange range) {
  std::vector<ChunkSlice> slices;
  const int64_t end = range.first + range.length;
  int64_t chunk_start = 0;
  for (std::size_t seq = 0; seq < chunk_sizes.size() && chunk_start < end; ++seq) {
    const int64_t chunk_end = chunk_start + chunk_sizes[seq];
    const int64_t from = std::max(range.first, chunk_start), to = std::min(end, chunk_end);
    if (from < to) {
      slices.push_back({static_cast<int>(seq), from - chunk_start, to - from});
    }
    chunk_start = chunk_end;
  }
  return slices;
}

}  // namespace feedback::responses
