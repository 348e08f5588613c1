#pragma once
// What a read of a stored file or recording sends (GET /media/..., docs/api.md "Media"): the
// header, with the byte range a Range request names resolved against the content, and the
// slices of the stored chunks that hold those bytes, so that a read streams them a few at a
// time, never holding the whole content. Knows nothing of gRPC or SQL.

#include <cstdint>
#include <vector>

#include "common/core/byte_range.h"
#include "feedback/responses/v1/media.pb.h"
#include "services/responses/media/blob_store.h"

namespace feedback::responses {

// The header of a read of `info` for `request`: the whole content, a part of it
// (`partial`), or none of it (`unsatisfiable`). A range is honoured only while If-Range, when
// given, is the content's tag.
v1::MediaHeader readHeader(const BlobInfo& info, const v1::ReadMediaRequest& request);

struct ChunkSlice {
  int seq = 0;
  int64_t offset = 0;  // within the chunk
  int64_t length = 0;
};

// The slices, in order, of chunks 0, 1, ... of `chunk_sizes` bytes that hold `range`.
std::vector<ChunkSlice> slicesOf(const std::vector<int64_t>& chunk_sizes, ByteRange range);

}  // namespace feedback::responses
