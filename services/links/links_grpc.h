#pragma once

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/links/v1/links.grpc.pb.h"
#include "services/links/links_service.h"

namespace feedback::links {

// Thin adapter: every RPC runs LinksService on the worker pool with a PgLinksStore.
class LinksGrpc final : public v1::LinksService::CallbackService {
 public:
  LinksGrpc(LinksService& service, PgPool& pool, Counters& counters)
      : service_(service), pool_(pool), counters_(counters) {}

  grpc::ServerUnaryReactor* CreateLink(grpc::CallbackServerContext* context,
                                       const v1::CreateLinkRequest* request,
                                       v1::CreateLinkResponse* response) override;
  grpc::ServerUnaryReactor* GetLink(grpc::CallbackServerContext* context,
                                    const v1::GetLinkRequest* request,
                                    v1::GetLinkResponse* response) override;
  grpc::ServerUnaryReactor* GetLinkBySlug(grpc::CallbackServerContext* context,
                                          const v1::GetLinkBySlugRequest* request,
                                          v1::GetLinkBySlugResponse* response) override;
  grpc::ServerUnaryReactor* ListLinks(grpc::CallbackServerContext* context,
                                      const v1::ListLinksRequest* request,
                                      v1::ListLinksResponse* response) override;
  grpc::ServerUnaryReactor* UpdateLink(grpc::CallbackServerContext* context,
                                       const v1::UpdateLinkRequest* request,
                                       v1::UpdateLinkResponse* response) override;
  grpc::ServerUnaryReactor* DeleteLink(grpc::CallbackServerContext* context,
                                       const v1::DeleteLinkRequest* request,
                                       v1::DeleteLinkResponse* response) override;

 private:
  LinksService& service_;
  PgPool& pool_;
  Counters& counters_;
};

}  // namespace feedback::links
