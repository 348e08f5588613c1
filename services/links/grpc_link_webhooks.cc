#include "services/links/grpc_link_webhooks.h"

#include <chrono>

#include "common/grpc/grpc_kit.h"

namespace feedback::links {
namespace {

namespace wv1 = feedback::webhooks::v1;

constexpr auto kDeadline = std::chrono::seconds(3);

void check(const grpc::Status& status) {
  if (!status.ok()) throw grpckit::fromStatus(status);
}

}  // namespace

GrpcLinkWebhooks::GrpcLinkWebhooks(std::shared_ptr<grpc::Channel> channel)
    : stub_(wv1::WebhooksService::NewStub(std::move(channel))) {}

void GrpcLinkWebhooks::put(const std::string& workspace_uuid, const std::string& link_uuid,
                           const std::string& url, const std::string& secret) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + kDeadline);
  wv1::PutLinkWebhookRequest request;
  request.set_workspace_uuid(workspace_uuid);
  request.set_link_uuid(link_uuid);
  request.set_url(url);
  request.set_secret(secret);
  wv1::PutLinkWebhookResponse response;
  check(stub_->PutLinkWebhook(&context, request, &response));
}

void GrpcLinkWebhooks::remove(const std::string& workspace_uuid, const std::string& link_uuid) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + kDeadline);
  wv1::RemoveLinkWebhooksRequest request;
  request.set_workspace_uuid(workspace_uuid);
  request.set_link_uuid(link_uuid);
  wv1::RemoveLinkWebhooksResponse response;
  check(stub_->RemoveLinkWebhooks(&context, request, &response));
}

}  // namespace feedback::links
