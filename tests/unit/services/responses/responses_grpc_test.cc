// The one-call submissions' RPC through a real gRPC server in the process: each submission
// answered on its own, in order, and the call finished once, after the last write, whichever
// thread ends it.
#include "services/responses/responses_grpc.h"

#include <grpcpp/grpcpp.h>

#include <boost/json/parse.hpp>

#include <catch2/catch.hpp>

#include <thread>
#include "services/responses/evaluation/local_evaluator.h"

#include "common/grpc/grpc_kit.h"

namespace v1 = feedback::responses::v1;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

class NoCounts final : public feedback::responses::LinkCounts {
 public:
  void begin(const std::string&, const std::vector<std::string>&) override {}
  void settle(const std::string&, std::optional<feedback::responses::CountRead>,
              const std::vector<std::string>&) override {}
  void settleRemoval(const std::string&, const std::vector<std::string>&) override {}
};

// Stores what it is given, answering later from a thread of its own; refuses the responses
// whose email is "refused@example.com" as a full queue would.
class LaterWriter final : public feedback::responses::ResponseWriter {
 public:
  ~LaterWriter() override {
    for (auto& t : threads_) t.join();
  }
  void write(feedback::responses::NewResponse response,
             feedback::responses::WriteDone done) override {
    const bool refuse = response.stored.response.respondent_email() == "refused@example.com";
    if (!refuse) {
      std::lock_guard lock(mutex_);
      stored.push_back(response.stored.response.uuid());
    }
    threads_.emplace_back([refuse, done = std::move(done)] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done(refuse ? std::make_exception_ptr(ApiError(ErrorCode::kServiceUnavailable)) : nullptr);
    });
  }
  std::mutex mutex_;
  std::vector<std::string> stored;

 private:
  std::vector<std::thread> threads_;
};

v1::IntakeLink intakeLink() {
  v1::IntakeLink out;
  out.set_workspace_uuid("11111111-1111-4111-8111-111111111111");
  auto* l = out.mutable_link();
  l->set_uuid("33333333-3333-4333-8333-333333333333");
  l->set_version(1);
  l->set_status("active");
  auto* q = l->add_questions();
  q->set_uuid("00000000-0000-4000-8000-000000000001");
  q->set_field_key("how");
  q->set_prompt("How was it?");
  q->set_response_type("number");
  q->set_configuration_json(R"({"min": 0, "max": 5})");
  q->set_condition_json("{}");
  q->set_required(true);
  return out;
}

v1::CompletedSubmission submission(int link_index, const char* value, const char* email = "") {
  v1::CompletedSubmission s;
  s.set_link_index(link_index);
  if (*email) s.set_respondent_email(email);
  auto* a = s.add_answers();
  a->set_field_key("how");
  a->set_value_json(value);
  return s;
}

struct Server {
  NoCounts counts;
  const feedback::responses::evaluation::LocalEvaluator evaluator;
  feedback::responses::ResponsesService service{counts, evaluator};
  LaterWriter writer;
  feedback::PgPool pool{"postgresql://unused", 0, 0};
  feedback::Counters counters;
  feedback::responses::ResponsesGrpc grpc{service, writer, pool, counters};
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::ResponsesService::Stub> stub;
  Server() {
    grpc::ServerBuilder builder;
    builder.RegisterService(&grpc);
    server = builder.BuildAndStart();
    stub = v1::ResponsesService::NewStub(server->InProcessChannel(grpc::ChannelArguments()));
  }
  ~Server() { server->Shutdown(); }
  v1::CreateCompletedResponsesResponse call(const v1::CreateCompletedResponsesRequest& request) {
    grpc::ClientContext context;
    v1::CreateCompletedResponsesResponse response;
    auto status = stub->CreateCompletedResponses(&context, request, &response);
    REQUIRE(status.ok());
    return response;
  }
};

std::string codeOf(const v1::CompletedResponseResult& result) {
  REQUIRE(result.has_error());
  auto error = feedback::grpckit::fromStatus(feedback::grpckit::fromRpcStatus(result.error()));
  return std::string(error.spec().name);
}

}  // namespace

TEST_CASE("responses grpc: each one-call submission is answered on its own, in order",
          "[responses]") {
  Server s;
  v1::CreateCompletedResponsesRequest request;
  *request.add_links() = intakeLink();
  *request.add_submissions() = submission(0, "3", "first@example.com");
  *request.add_submissions() = submission(1, "3");  // names no link of the call
  *request.add_submissions() = submission(0, "9");  // out of range: INVALID_ANSWER
  *request.add_submissions() = submission(0, "4", "refused@example.com");
  *request.add_submissions() = submission(0, "5");
  auto response = s.call(request);
  REQUIRE(response.results_size() == 5);
  auto first = boost::json::parse(response.results(0).record_json());
  CHECK(first.at("respondent_email") == "first@example.com");
  CHECK(first.at("status") == "completed");
  CHECK(codeOf(response.results(1)) == "VALIDATION_ERROR");
  CHECK(codeOf(response.results(2)) == "INVALID_ANSWER");
  CHECK(codeOf(response.results(3)) == "SERVICE_UNAVAILABLE");
  REQUIRE(response.results(4).has_record_json());
  {
    std::lock_guard lock(s.writer.mutex_);
    CHECK(s.writer.stored.size() == 2);
  }
  const std::string metrics = s.counters.render();
  CHECK(metrics.find("completed_submissions_total{code=\"OK\"} 2") != std::string::npos);
  CHECK(metrics.find("completed_submissions_total{code=\"INVALID_ARGUMENT\"} 2") !=
        std::string::npos);
  CHECK(metrics.find("completed_submissions_total{code=\"UNAVAILABLE\"} 1") != std::string::npos);
}

TEST_CASE("responses grpc: a call without submissions is answered at once", "[responses]") {
  Server s;
  CHECK(s.call({}).results_size() == 0);
}
