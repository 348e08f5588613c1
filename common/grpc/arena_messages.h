#pragma once
// A callback service's request and response messages on one protobuf arena per call
// (`SetMessageAllocatorFor_<Method>(&allocator)`): parsing a request of many submessages
// (a batch of submissions, each with its link's questions and dozens of answers) then costs
// a few block allocations instead of one per message and string, and freeing it costs one
// release instead of a destructor walk. Messages made while answering the call (the
// response's records) live on the same arena.

#include <google/protobuf/arena.h>
#include <grpcpp/support/message_allocator.h>

namespace feedback::grpckit {

template <class Request, class Response>
class ArenaMessages final : public grpc::MessageAllocator<Request, Response> {
 public:
  grpc::MessageHolder<Request, Response>* AllocateMessages() override { return new Holder; }

 private:
  class Holder final : public grpc::MessageHolder<Request, Response> {
   public:
    Holder() : arena_(options()) {
      this->set_request(google::protobuf::Arena::CreateMessage<Request>(&arena_));
      this->set_response(google::protobuf::Arena::CreateMessage<Response>(&arena_));
    }
    void Release() override { delete this; }

   private:
    static google::protobuf::ArenaOptions options() {
      google::protobuf::ArenaOptions out;
      // A 32-type submission's request and answers take about 20 KiB.
      out.start_block_size = 16 * 1024;
      out.max_block_size = 256 * 1024;
      return out;
    }
    google::protobuf::Arena arena_;
  };
};

}  // namespace feedback::grpckit
