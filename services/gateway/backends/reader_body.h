#pragma once
// What the server holds of a streaming gRPC reader (media_streams.cc, export_stream.cc): a
// BodyStream whose pieces the reader reads one at a time; dropping it, or cancel(), ends the
// reader's call.

#include <memory>

#include "services/gateway/http/message.h"

namespace feedback::gateway {

// `Reader` has next(BodyStream::Got) and cancel().
template <class Reader>
class ReaderBody final : public BodyStream {
 public:
  explicit ReaderBody(std::shared_ptr<Reader> reader) : reader_(std::move(reader)) {}
  ~ReaderBody() override { reader_->cancel(); }
  void next(Got got) override { reader_->next(std::move(got)); }
  void cancel() override { reader_->cancel(); }

 private:
  std::shared_ptr<Reader> reader_;
};

}  // namespace feedback::gateway
