// feedbackctl: the admin command line (workspaces, plans and their keys), talking gRPC to tokens.
#include <chrono>
#include <cstdlib>
#include <iostream>

#include "common/core/config.h"
#include "common/core/json_writer.h"
#include "common/grpc/grpc_kit.h"
#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/feedbackctl/cli.h"

namespace {

namespace tv1 = feedback::tokens::v1;

void printWorkspace(const feedback::common::v1::Workspace& ws, const std::string* api_key) {
  std::string out;
  feedback::JsonWriter json(out);
  json.beginObject()
      .field("workspace_uuid", ws.uuid())
      .field("name", ws.name())
      .field("subdomain", ws.subdomain())
      .field("host", ws.host())
      .field("plan", ws.plan())
      .field("rate_limit", ws.rate_limit())
      .key("link_quota");
  if (ws.link_quota() < 0) {
    json.null();
  } else {
    json.integer(ws.link_quota());
  }
  json.key("retention_days");
  if (ws.retention_days() > 0) {
    json.integer(ws.retention_days());
  } else {
    json.null();
  }
  if (api_key) json.field("api_key", *api_key);
  json.endObject();
  std::cout << out << std::endl;
}

int fail(const grpc::Status& status) {
  feedback::ApiError error = feedback::grpckit::fromStatus(status);
  std::cerr << "feedbackctl: " << error.what();
  for (const auto& [path, message] : error.details())
    std::cerr << " (" << path << ": " << message << ")";
  std::cerr << "\n";
  return 1;
}

}  // namespace

namespace {

// The tokens service feedbackctl talks to.
std::string tokensTarget(feedback::Env& env) {
  return env.grpcTarget("TOKENS_ADDR", "127.0.0.1:50051", {"the tokens service"});
}

}  // namespace

int main(int argc, char** argv) {
  if (feedback::asksForSettings(argc, argv)) {
    feedback::Env env = feedback::Env::empty();
    tokensTarget(env);
    std::cout << env.settingsJson() << "\n";
    return 0;
  }
  feedback::ctl::Command command;
  try {
    command = feedback::ctl::parseArguments(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::invalid_argument& e) {
    std::cerr << "feedbackctl: " << e.what() << "\n" << feedback::ctl::kUsage;
    return 2;
  }
  if (command.help) {
    std::cout << feedback::ctl::kUsage;
    return 0;
  }
  feedback::Env env;
  const std::string tokens = tokensTarget(env);
  try {
    env.check();
  } catch (const feedback::ConfigError& e) {
    std::cerr << "feedbackctl: " << e.what() << "\n";
    return 2;
  }
  auto stub = tv1::TokensService::NewStub(feedback::grpckit::makeChannel(tokens));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  // Waits for the tokens service to come up instead of failing at once.
  context.set_wait_for_ready(true);

  if (command.create_workspace) {
    const auto& c = *command.create_workspace;
    tv1::CreateWorkspaceRequest request;
    request.set_name(c.name);
    request.set_plan(c.plan);
    request.set_subdomain(c.subdomain);
    if (c.rate_limit) request.set_rate_limit(*c.rate_limit);
    if (c.link_quota) request.set_link_quota(*c.link_quota);
    if (c.retention_days) request.set_retention_days(*c.retention_days);
    tv1::CreateWorkspaceResponse response;
    auto status = stub->CreateWorkspace(&context, request, &response);
    if (!status.ok()) return fail(status);
    printWorkspace(response.workspace(), &response.api_key());
    return 0;
  }
  if (command.create_key) {
    tv1::CreateWorkspaceKeyRequest request;
    request.set_workspace_uuid(command.create_key->workspace_uuid);
    request.set_name(command.create_key->name);
    tv1::CreateWorkspaceKeyResponse response;
    auto status = stub->CreateWorkspaceKey(&context, request, &response);
    if (!status.ok()) return fail(status);
    std::string out;
    feedback::JsonWriter json(out);
    json.beginObject()
        .field("workspace_uuid", command.create_key->workspace_uuid)
        .field("uuid", response.token().uuid())
        .field("name", response.token().name())
        .field("prefix", response.token().prefix())
        .key("scopes")
        .beginArray();
    for (const auto& s : response.token().scopes()) json.string(s);
    json.endArray().field("api_key", response.key()).endObject();
    std::cout << out << std::endl;
    return 0;
  }
  tv1::SetWorkspacePlanRequest request;
  request.set_workspace_uuid(command.set_plan->workspace_uuid);
  request.set_plan(command.set_plan->plan);
  if (const auto& rate = command.set_plan->rate_limit) {
    if (rate->value) request.set_rate_limit(*rate->value);
    request.set_plan_rate_limit(rate->plan_default);
  }
  if (const auto& quota = command.set_plan->link_quota) {
    if (quota->value) request.set_link_quota(*quota->value);
    request.set_plan_link_quota(quota->plan_default);
  }
  if (const auto& retention = command.set_plan->retention_days) {
    if (*retention) {
      request.set_retention_days(**retention);
    } else {
      request.set_no_retention(true);
    }
  }
  tv1::SetWorkspacePlanResponse response;
  auto status = stub->SetWorkspacePlan(&context, request, &response);
  if (!status.ok()) return fail(status);
  printWorkspace(response.workspace(), nullptr);
  return 0;
}
