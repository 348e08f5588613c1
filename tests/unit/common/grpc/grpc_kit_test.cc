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
