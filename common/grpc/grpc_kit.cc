#include "common/grpc/grpc_kit.h"

#include <absl/synchronization/mutex.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/support/server_interceptor.h>

#include <chrono>
#include <string_view>
#include <thread>

#include "common/core/log.h"
#include "common/core/process.h"

namespace feedback::grpckit {
namespace {

// Debian's Abseil checks every Mutex acquisition for lock-order cycles, which gRPC takes
// several times per call: measurable CPU that production builds do not spend.
const bool kDeadlockDetectionOff = [] {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  return true;
}();

}  // namespace

grpc::Status toStatus(const ApiError& error) {
  feedback::common::v1::ErrorInfo info;
  info.set_code(std::string(error.spec().name));
  info.set_message(error.what());
  for (const auto& [path, message] : error.details()) (*info.mutable_details())[path] = message;
  feedback::common::v1::RpcStatus rpc_status;
  rpc_status.set_code(error.spec().grpc_status);
  rpc_status.set_message(error.what());
  rpc_status.add_details()->PackFrom(info);
  return grpc::Status(static_cast<grpc::StatusCode>(error.spec().grpc_status), error.what(),
                      rpc_status.SerializeAsString());
}

feedback::common::v1::RpcStatus toRpcStatus(const grpc::Status& status) {
  feedback::common::v1::RpcStatus out;
  if (status.error_details().empty() || !out.ParseFromString(status.error_details())) {
    out.Clear();
    out.set_code(status.error_code());
    out.set_message(status.error_message());
  }
  return out;
}

grpc::Status fromRpcStatus(const feedback::common::v1::RpcStatus& status) {
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), status.message(),
                      status.SerializeAsString());
}

ApiError fromStatus(const grpc::Status& status) {
  feedback::common::v1::RpcStatus rpc_status;
  if (!status.error_details().empty() && rpc_status.ParseFromString(status.error_details())) {
    for (const auto& any : rpc_status.details()) {
      feedback::common::v1::ErrorInfo info;
      if (!any.Is<feedback::common::v1::ErrorInfo>() || !any.UnpackTo(&info)) continue;
      if (auto code = errorCodeFromName(info.code())) {
        ErrorDetails details(info.details().begin(), info.details().end());
        return ApiError(*code, info.message(), std::move(details));
      }
    }
  }
  switch (status.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
    case grpc::StatusCode::CANCELLED:
    // A peer of another version, during a rolling update: retried later, it meets one that
    // knows the call.
    case grpc::StatusCode::UNIMPLEMENTED:
      return ApiError(ErrorCode::kServiceUnavailable);
    case grpc::StatusCode::NOT_FOUND:
      return ApiError(ErrorCode::kNotFound);
    default:
      log::error("grpc_unexpected_status", {{"code", static_cast<int>(status.error_code())},
                                            {"message", status.error_message()}});
      return ApiError(ErrorCode::kInternalError);
  }
}

grpc::Status guarded(const std::function<void()>& body, std::string_view request_id) {
  try {
    body();
    return grpc::Status::OK;
  } catch (const ApiError& e) {
    return toStatus(e);
  } catch (const std::exception& e) {
    log::error("handler_failed", {{"error", e.what()}, {"request_id", request_id}});
    return toStatus(ApiError(ErrorCode::kInternalError));
  }
}

std::string_view statusName(grpc::StatusCode code) {
  static constexpr std::string_view kNames[] = {"OK",
                                                "CANCELLED",
                                                "UNKNOWN",
                                                "INVALID_ARGUMENT",
                                                "DEADLINE_EXCEEDED",
                                                "NOT_FOUND",
                                                "ALREADY_EXISTS",
                                                "PERMISSION_DENIED",
                                                "RESOURCE_EXHAUSTED",
                                                "FAILED_PRECONDITION",
                                                "ABORTED",
                                                "OUT_OF_RANGE",
                                                "UNIMPLEMENTED",
                                                "INTERNAL",
                                                "UNAVAILABLE",
                                                "DATA_LOSS",
                                                "UNAUTHENTICATED"};
  auto index = static_cast<std::size_t>(code);
  return index < std::size(kNames) ? kNames[index] : "UNKNOWN";
}

std::shared_ptr<grpc::Channel> makeChannel(const std::string& address, bool bulk) {
  grpc::ChannelArguments args;
  if (bulk) {
    args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
    // Channels with the same arguments share connections: this one differs.
    args.SetInt("feedback.bulk", 1);
  }
  // Calls fail fast while a peer is down (no wait-for-ready); the gateway answers 503 at once.
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 30000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10000);
  // Round robin keeps reconnecting to a replica that went away, failing calls meanwhile: a
  // short backoff finds it again within a second of its return.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  // A lost connection makes the name be looked up again; a replaced pod's successor is found
  // within a second (gRPC's default waits 30 s between lookups).
  args.SetInt(GRPC_ARG_DNS_MIN_TIME_BETWEEN_RESOLUTIONS_MS, 1000);
  // Calls spread over every replica the target names (Env::grpcTarget).
  // Each replica's health is watched (grpc.health.v1): one that is leaving says NOT_SERVING
  // and gets no new calls while it finishes the ones it has (serveUntilSignal).
  args.SetServiceConfigJSON(
      R"({"loadBalancingConfig": [{"round_robin": {}}], "healthCheckConfig": {"serviceName": ""}})");
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

bool available(grpc::Channel& channel) {
  const auto state = channel.GetState(false);
  return state != GRPC_CHANNEL_TRANSIENT_FAILURE && state != GRPC_CHANNEL_SHUTDOWN;
}

bool ChannelReadiness::ready() {
  auto state = channel_->GetState(true);
  if (state != GRPC_CHANNEL_READY && !connected_once_) {
    // Nothing polls an idle channel but gRPC's backup poller (every 5 s), so a first
    // connection would take seconds; waiting here drives it.
    channel_->WaitForConnected(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
    state = channel_->GetState(false);
  }
  if (state == GRPC_CHANNEL_READY) {
    connected_once_ = true;
    return true;
  }
  return state == GRPC_CHANNEL_IDLE && connected_once_;
}

namespace {

// One per call: counts it in CallsInFlight for as long as the call lives.
class CountingInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit CountingInterceptor(CallsInFlight* calls) : calls_(calls) {
    if (calls_) calls_->started();
  }
  ~CountingInterceptor() override {
    if (calls_) calls_->ended();
  }
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    methods->Proceed();
  }

 private:
  CallsInFlight* calls_;
};

class CountingInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit CountingInterceptorFactory(CallsInFlight& calls) : calls_(calls) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    const bool watch = std::string_view(info->method()) == "/grpc.health.v1.Health/Watch";
    return new CountingInterceptor(watch ? nullptr : &calls_);
  }

 private:
  CallsInFlight& calls_;
};

}  // namespace

std::unique_ptr<grpc::Server> startServer(const std::vector<grpc::Service*>& services, int port,
                                          int* bound_port, CallsInFlight* calls) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort("0.0.0.0:" + std::to_string(port), grpc::InsecureServerCredentials(),
                           bound_port);
  // Clients reconnect now and then, and so re-resolve their target: replicas added since
  // (a scale-up behind a headless Service) start getting calls. Calls under way on an aged
  // connection may finish (live transcriptions last minutes).
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, 60 * 1000);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, 15 * 60 * 1000);
  if (calls) {
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> counting;
    counting.push_back(std::make_unique<CountingInterceptorFactory>(*calls));
    builder.experimental().SetInterceptorCreators(std::move(counting));
  }
  for (auto* s : services) builder.RegisterService(s);
  auto server = builder.BuildAndStart();
  if (!server) throw std::runtime_error("cannot listen on gRPC port " + std::to_string(port));
  return server;
}

void serveUntilSignal(grpc::Server& server, const std::function<void()>& on_signal,
                      std::chrono::milliseconds drain_delay, const CallsInFlight* calls,
                      int drain_seconds) {
  int signal_number = process::waitForTerminationSignal();
  log::info("draining", {{"signal", signal_number}});
  if (on_signal) on_signal();
  server.GetHealthCheckService()->Shutdown();
  std::this_thread::sleep_for(drain_delay);
  auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(drain_seconds);
  if (calls) {
    // The health watches never end by themselves: waiting for every call would always take
    // the whole drain. Wait for the others, then end the server at once.
    while (calls->count() > 0 && std::chrono::system_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    deadline = std::chrono::system_clock::now();
  }
  server.Shutdown(deadline);
}

}  // namespace feedback::grpckit
