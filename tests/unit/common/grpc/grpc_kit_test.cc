#include "common/grpc/grpc_kit.h"

#include <catch2/catch.hpp>

#include "feedback/common/v1/common.pb.h"

using feedback::ApiError;
using feedback::ErrorCode;

TEST_CASE("errors: an ApiError crosses gRPC with its code, message and details", "[errors]") {
  ApiError sent(ErrorCode::kSlugConflict, "A link with slug 'nps' already exists.",
                {{"slug", "already exists"}});
  grpc::Status status = feedback::grpckit::toStatus(sent);
  CHECK(status.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  // Any gRPC client reads the trailer as a google.rpc.Status with the same code.
  feedback::common::v1::RpcStatus rpc_status;
  REQUIRE(rpc_status.ParseFromString(status.error_details()));
  CHECK(rpc_status.code() == static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  REQUIRE(rpc_status.details_size() == 1);
  CHECK(rpc_status.details(0).type_url() == "type.googleapis.com/feedback.common.v1.ErrorInfo");
  ApiError received = feedback::grpckit::fromStatus(status);
  CHECK(received.code() == ErrorCode::kSlugConflict);
  CHECK(std::string(received.what()) == "A link with slug 'nps' already exists.");
  CHECK(received.details() == feedback::ErrorDetails{{"slug", "already exists"}});
}

TEST_CASE("errors: transport failures become SERVICE_UNAVAILABLE", "[errors]") {
  // UNIMPLEMENTED: a peer of another version during a rolling update.
  for (auto code : {grpc::StatusCode::UNAVAILABLE, grpc::StatusCode::DEADLINE_EXCEEDED,
                    grpc::StatusCode::UNIMPLEMENTED}) {
    CHECK(feedback::grpckit::fromStatus(grpc::Status(code, "down")).code() ==
          ErrorCode::kServiceUnavailable);
  }
  CHECK(feedback::grpckit::fromStatus(grpc::Status(grpc::StatusCode::INTERNAL, "bug")).code() ==
        ErrorCode::kInternalError);
}

TEST_CASE("errors: a status carried in a message comes back whole", "[errors]") {
  auto sent = feedback::grpckit::toStatus(
      feedback::ApiError(ErrorCode::kInvalidAnswer, "Bad.", {{"num", "too big"}}));
  auto back = feedback::grpckit::fromStatus(
      feedback::grpckit::fromRpcStatus(feedback::grpckit::toRpcStatus(sent)));
  CHECK(back.code() == ErrorCode::kInvalidAnswer);
  CHECK(back.details() == feedback::ErrorDetails{{"num", "too big"}});
  // A transport failure has no details: its code is kept.
  auto lost = feedback::grpckit::toRpcStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, "down"));
  CHECK(feedback::grpckit::fromStatus(feedback::grpckit::fromRpcStatus(lost)).code() ==
        ErrorCode::kServiceUnavailable);
}

TEST_CASE("errors: guarded() maps exceptions to statuses", "[errors]") {
  CHECK(feedback::grpckit::guarded([] {}).ok());
  auto not_found = feedback::grpckit::guarded([] { throw ApiError(ErrorCode::kNotFound); });
  CHECK(not_found.error_code() == grpc::StatusCode::NOT_FOUND);
  auto crash = feedback::grpckit::guarded([] { throw std::runtime_error("boom"); });
  CHECK(crash.error_code() == grpc::StatusCode::INTERNAL);
}

TEST_CASE("channels: available until every connection is lost, then again once reconnected",
          "[grpc]") {
  int port = 0;
  auto server = feedback::grpckit::startServer({}, 0, &port);
  auto channel = feedback::grpckit::makeChannel("127.0.0.1:" + std::to_string(port));
  CHECK(feedback::grpckit::available(*channel));  // idle: a call would connect
  REQUIRE(channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(5)));
  CHECK(feedback::grpckit::available(*channel));
  server->Shutdown();
  server.reset();
  // Reconnecting to a closed port fails: calls would fail at once.
  auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(5);
  while (feedback::grpckit::available(*channel) && std::chrono::system_clock::now() < deadline) {
    channel->WaitForStateChange(channel->GetState(true), deadline);
  }
  CHECK_FALSE(feedback::grpckit::available(*channel));
  // The same port served again: the channel finds it within its reconnect backoff.
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:" + std::to_string(port), grpc::InsecureServerCredentials());
  auto again = builder.BuildAndStart();
  REQUIRE(again);
  CHECK(channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(5)));
  CHECK(feedback::grpckit::available(*channel));
  again->Shutdown();
}
