#include "tests/fuzz/support/fake_backends.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/grpcpp.h>

#include "common/grpc/grpc_kit.h"
#include "common/questions/question_types.h"
#include "feedback/links/v1/links.pb.h"
#include "feedback/responses/v1/media.pb.h"
#include "tests/fuzz/fuzz_check.h"

namespace feedback::fuzz {
namespace {

namespace pb = google::protobuf;

// A working configuration of each question type, so that answers can be judged against it.
const char* configurationOf(std::string_view type) {
  if (type == "voice") return R"({"max_duration": 60})";
  if (type == "multiple_choice") return R"({"options": ["a", "b", "c"], "allow_multiple": true})";
  if (type == "number") return R"({"min": 0, "max": 10, "step": 1})";
  if (type == "rating") return R"({"scale_type": "nps"})";
  if (type == "image_choice") {
    return R"({"cards": [{"id": "c1", "label": "Cat", "media_url": "https://e.example/c.png",
               "media_type": "image"}]})";
  }
  if (type == "file_upload") return R"({"allowed_types": ["image/png"], "max_size_mb": 1})";
  if (type == "calculated") return R"({"formula": "number * 2"})";
  if (type == "help_block") return R"({"content": "Thanks for your time."})";
  return "{}";
}

std::string intakeLinkAnswer() {
  links::v1::GetLinkBySlugResponse out;
  auto* link = out.mutable_link();
  link->set_uuid("3f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60");
  link->set_name("Fuzz");
  link->set_slug(FakeBackends::kSlug);
  link->set_status("active");
  link->set_version(1);
  link->mutable_settings()->set_live_transcription(true);
  link->mutable_settings()->set_tts_enabled(true);
  link->mutable_settings()->set_thank_you_message("Thanks!");
  int order = 0;
  for (const auto& type : questions::questionTypes()) {
    auto* q = link->add_questions();
    q->set_uuid("00000000-0000-4000-8000-0000000000" + std::to_string(10 + order));
    q->set_field_key(std::string(type.name));
    q->set_prompt("About " + std::string(type.name) + "?");
    q->set_response_type(std::string(type.name));
    q->set_configuration_json(configurationOf(type.name));
    q->set_condition_json("{}");
    q->set_evaluator_config_json("{}");
    q->set_order(order++);
    q->set_fallback_to_text(true);
  }
  return out.SerializeAsString();
}

std::string bytesOf(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  FUZZ_CHECK(buffer.Dump(&slices).ok());
  std::string out;
  for (const auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

// "/feedback.links.v1.LinksService/GetLinkBySlug" as its descriptor.
const pb::MethodDescriptor* methodOf(const std::string& path) {
  auto slash = path.rfind('/');
  if (path.empty() || path[0] != '/' || slash == 0 || slash == std::string::npos) return nullptr;
  std::string name = path.substr(1, slash - 1) + "." + path.substr(slash + 1);
  return pb::DescriptorPool::generated_pool()->FindMethodByName(name);
}

class Call final : public grpc::ServerGenericBidiReactor {
 public:
  Call(grpc::GenericCallbackServerContext* context, std::atomic<uint64_t>& messages)
      : method_(methodOf(context->method())), messages_(messages) {
    if (!context->method().starts_with("/feedback.")) {
      // The channel's own calls (grpc.health.v1 watches): not served, so taken as healthy.
      Finish(grpc::Status(grpc::StatusCode::UNIMPLEMENTED, ""));
      return;
    }
    // The gateway calls only methods its services declare.
    FUZZ_CHECK(method_ != nullptr);
    StartRead(&in_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) return answer();  // the caller has sent everything
    const pb::Message* prototype =
        pb::MessageFactory::generated_factory()->GetPrototype(method_->input_type());
    std::unique_ptr<pb::Message> message(prototype->New());
    FUZZ_CHECK(message->ParseFromString(bytesOf(in_)));
    ++messages_;
    if (!method_->client_streaming()) return answer();
    StartRead(&in_);
  }

  void OnWriteDone(bool) override {}
  void OnDone() override { delete this; }

 private:
  void answer() {
    if (method_->name() == "GetLinkBySlug") {
      static const std::string kLink = intakeLinkAnswer();
      grpc::Slice slice(kLink);
      out_ = grpc::ByteBuffer(&slice, 1);
      return StartWriteAndFinish(&out_, grpc::WriteOptions(), grpc::Status::OK);
    }
    if (method_->name() == "TranscribeLive") return Finish(grpc::Status::OK);
    Finish(grpc::Status(grpc::StatusCode::NOT_FOUND, "not in the fuzz target's backends"));
  }

  const pb::MethodDescriptor* method_;
  std::atomic<uint64_t>& messages_;
  grpc::ByteBuffer in_;
  grpc::ByteBuffer out_;
};

}  // namespace

class FakeBackends::Generic final : public grpc::CallbackGenericService {
 public:
  explicit Generic(std::atomic<uint64_t>& messages) : messages_(messages) {}
  grpc::ServerGenericBidiReactor* CreateReactor(
      grpc::GenericCallbackServerContext* context) override {
    return new Call(context, messages_);
  }

 private:
  std::atomic<uint64_t>& messages_;
};

FakeBackends::FakeBackends() : generic_(std::make_unique<Generic>(messages_)) {
  // The generated descriptors of every service the gateway calls are linked in.
  links::v1::GetLinkBySlugRequest::descriptor();
  responses::v1::TranscribeLiveRequest::descriptor();
  // Over loopback TCP and the gateway's own channels, as in production (gRPC's in-process
  // transport delays some callbacks by seconds, which would read as hangs).
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterCallbackGenericService(generic_.get());
  server_ = builder.BuildAndStart();
  FUZZ_CHECK(server_ != nullptr && port > 0);
  const std::string address = "127.0.0.1:" + std::to_string(port);
  auto channel = grpckit::makeChannel(address);
  backends_ = {channel, channel, channel, channel, grpckit::makeChannel(address, true)};
}

FakeBackends::~FakeBackends() {
  server_->Shutdown();
}

}  // namespace feedback::fuzz
