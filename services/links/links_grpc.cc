#include "services/links/links_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/links/pg_links_store.h"

namespace feedback::links {

grpc::ServerUnaryReactor* LinksGrpc::CreateLink(grpc::CallbackServerContext* c,
                                                const v1::CreateLinkRequest* q,
                                                v1::CreateLinkResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "CreateLink", service_,
                                           &LinksService::createLink, q, r);
}
grpc::ServerUnaryReactor* LinksGrpc::GetLink(grpc::CallbackServerContext* c,
                                             const v1::GetLinkRequest* q, v1::GetLinkResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "GetLink", service_,
                                           &LinksService::getLink, q, r);
}
grpc::ServerUnaryReactor* LinksGrpc::GetLinkBySlug(grpc::CallbackServerContext* c,
                                                   const v1::GetLinkBySlugRequest* q,
                                                   v1::GetLinkBySlugResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "GetLinkBySlug", service_,
                                           &LinksService::getLinkBySlug, q, r);
}
grpc::ServerUnaryReactor* LinksGrpc::ListLinks(grpc::CallbackServerContext* c,
                                               const v1::ListLinksRequest* q,
                                               v1::ListLinksResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "ListLinks", service_,
                                           &LinksService::listLinks, q, r);
}
grpc::ServerUnaryReactor* LinksGrpc::UpdateLink(grpc::CallbackServerContext* c,
                                                const v1::UpdateLinkRequest* q,
                                                v1::UpdateLinkResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "UpdateLink", service_,
                                           &LinksService::updateLink, q, r);
}
grpc::ServerUnaryReactor* LinksGrpc::DeleteLink(grpc::CallbackServerContext* c,
                                                const v1::DeleteLinkRequest* q,
                                                v1::DeleteLinkResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "DeleteLink", service_,
                                           &LinksService::deleteLink, q, r);
}

}  // namespace feedback::links
