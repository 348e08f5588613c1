#include "services/responses/media/media_read_stream.h"

#include <grpcpp/alarm.h>

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "common/service/call_meter.h"
#include "services/responses/media/media_reads.h"
#include "services/responses/media/pg_blob_store.h"

namespace feedback::responses {
namespace {

// Chunks (of at most 256 KiB) loaded at a time: about 512 KiB held per reader.
constexpr std::size_t kChunksAtATime = 2;
// Each message carries at most this much: the gateway holds a message and a piece per reader,
// so smaller messages keep its memory flat with many readers (a whole 256 KiB chunk per message
// made 50 readers cost it up to 100 MiB under load).
constexpr std::size_t kMessageBytes = 64 * 1024;
// A body under way waits this long for a busy pool, this many times, before it is cut.
constexpr std::chrono::milliseconds kBusyPause{20};
constexpr int kBusyTries = 250;

class MediaReadStream final : public grpc::ServerWriteReactor<v1::ReadMediaResponse> {
 public:
  MediaReadStream(grpc::CallbackServerContext* context, const v1::ReadMediaRequest* request,
                  PgPool& pool, Counters& counters)
      : meter_(context, counters, "ReadMedia"), request_(*request), pool_(pool) {
    load([this](PgSession& session) { open(session); });
  }

  void OnWriteDone(bool ok) override {
    if (!ok) return finish(grpc::Status(grpc::StatusCode::CANCELLED, "the reader left"));
    next();
  }

  void OnDone() override { delete this; }

 private:
  // The header, and which slices of which chunks follow it.
  void open(PgSession& session) {
    PgBlobStore blobs(session.connection());
    const auto info = blobs.info(request_.workspace_uuid(), request_.blob_uuid());
    if (!info) throw ApiError(ErrorCode::kNotFound, "No such file.");
    auto& message = messages_.emplace_back();
    *message.mutable_chunk()->mutable_header() = readHeader(*info, request_);
    const auto& header = message.chunk().header();
    if (header.unsatisfiable() || header.range_length() == 0) return;
    slices_ = slicesOf(blobs.chunkSizes(info->uuid), {header.range_first(), header.range_length()});
  }

  // The next few slices' bytes.
  void loadSlices(PgSession& session) {
    const std::size_t end = std::min(slices_.size(), next_slice_ + kChunksAtATime);
    PgBlobStore blobs(session.connection());
    std::size_t at = next_slice_;
    blobs.readChunks(request_.blob_uuid(), slices_[at].seq, slices_[end - 1].seq,
                     [&](int seq, std::string_view data) {
                       if (at == end || slices_[at].seq != seq) return;
                       const auto& slice = slices_[at++];
                       const auto bytes = data.substr(static_cast<std::size_t>(slice.offset),
                                                      static_cast<std::size_t>(slice.length));
                       for (std::size_t from = 0; from < bytes.size(); from += kMessageBytes) {
                         messages_.emplace_back().mutable_chunk()->set_data(
                             std::string(bytes.substr(from, kMessageBytes)));
                       }
                     });
    // Deleted while it was read (its answer replaced): what was sent is all there is.
    if (at != end) throw ApiError(ErrorCode::kNotFound, "The file was deleted while it was read.");
    next_slice_ = end;
  }

  void next() {
    if (sent_ < messages_.size()) {
      begun_ = true;
      return StartWrite(&messages_[sent_++]);
    }
    if (next_slice_ == slices_.size()) return finish(grpc::Status::OK);
    messages_.clear();
    sent_ = 0;
    load([this](PgSession& session) { loadSlices(session); });
  }

  // On the worker pool. A busy pool refuses the read before its header (503); once the body
  // has begun, the load is tried again a moment later rather than cut the body short.
  void load(std::function<void(PgSession&)> work) {
    const bool queued = pool_.trySubmit([this, work](PgSession& session) {
      log::TraceScope traced(meter_.traceId());
      busy_tries_ = 0;
      const auto status = grpckit::guarded([&] { work(session); }, meter_.requestId());
      if (!status.ok()) return finish(status);
      next();
    });
    if (queued) return;
    if (!begun_ || ++busy_tries_ > kBusyTries) {
      return finish(
          grpckit::toStatus(ApiError(ErrorCode::kServiceUnavailable, "The service is busy.")));
    }
    retry_.Set(std::chrono::system_clock::now() + kBusyPause, [this, work](bool fired) {
      if (!fired) return finish(grpc::Status(grpc::StatusCode::CANCELLED, "stopped"));
      load(work);
    });
  }

  void finish(const grpc::Status& status) {
    meter_.record(status);
    Finish(status);
  }

  const service::CallMeter meter_;
  const v1::ReadMediaRequest request_;
  PgPool& pool_;
  std::vector<ChunkSlice> slices_;
  std::size_t next_slice_ = 0;
  std::vector<v1::ReadMediaResponse> messages_;
  std::size_t sent_ = 0;
  bool begun_ = false;  // the header is sent
  int busy_tries_ = 0;
  grpc::Alarm retry_;
};

}  // namespace

grpc::ServerWriteReactor<v1::ReadMediaResponse>* newMediaReadStream(
    grpc::CallbackServerContext* context, const v1::ReadMediaRequest* request, PgPool& pool,
    Counters& counters) {
  return new MediaReadStream(context, request, pool, counters);
}

}  // namespace feedback::responses
