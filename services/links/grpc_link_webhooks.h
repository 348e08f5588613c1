#pragma once

#include <grpcpp/channel.h>

#include <memory>

#include "feedback/webhooks/v1/webhooks.grpc.pb.h"
#include "services/links/links_store.h"

namespace feedback::links {

// LinkWebhooks over gRPC to the webhooks service. Calls block (they run on a worker of the
// pool, after the link's transaction) for at most a few seconds.
class GrpcLinkWebhooks final : public LinkWebhooks {
 public:
  explicit GrpcLinkWebhooks(std::shared_ptr<grpc::Channel> channel);
  void put(const std::string& workspace_uuid, const std::string& link_uuid, const std::string& url,
           const std::string& secret) override;
  void remove(const std::string& workspace_uuid, const std::string& link_uuid) override;

 private:
  std::unique_ptr<feedback::webhooks::v1::WebhooksService::Stub> stub_;
};

}  // namespace feedback::links
