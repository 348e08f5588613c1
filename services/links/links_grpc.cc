#include "services/links/links_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/links/pg_links_store.h"

namespace feedback::links {

template <class Request, class Response, class Method>
grpc::ServerUnaryReactor* LinksGrpc::run(std::string_view name,
                                         grpc::CallbackServerContext* context,
                                         const Request* request, Response* response,
                                         Method method) {
  return service::onPool(context, pool_, counters_, name,
                         [this, request, response, method](PgSession& session) {
                           PgLinksStore store(session.connection());
                           *response = (service_.*method)(store, *request);
                         });
}

grpc::ServerUnaryReactor* LinksGrpc::CreateLink(grpc::CallbackServerContext* c,
                                                const v1::CreateLinkRequest* q,
                                                v1::CreateLinkResponse* r) {
  return run("CreateLink", c, q, r, &LinksService::createLink);
}
grpc::ServerUnaryReactor* LinksGrpc::GetLink(grpc::CallbackServerContext* c,
                                             const v1::GetLinkRequest* q, v1::GetLinkResponse* r) {
  return run("GetLink", c, q, r, &LinksService::getLink);
}
grpc::ServerUnaryReactor* LinksGrpc::ListLinks(grpc::CallbackServerContext* c,
                                               const v1::ListLinksRequest* q,
                                               v1::ListLinksResponse* r) {
  return run("ListLinks", c, q, r, &LinksService::listLinks);
}
grpc::ServerUnaryReactor* LinksGrpc::UpdateLink(grpc::CallbackServerContext* c,
                                                const v1::UpdateLinkRequest* q,
                                                v1::UpdateLinkResponse* r) {
  return run("UpdateLink", c, q, r, &LinksService::updateLink);
}
grpc::ServerUnaryReactor* LinksGrpc::DeleteLink(grpc::CallbackServerContext* c,
                                                const v1::DeleteLinkRequest* q,
                                                v1::DeleteLinkResponse* r) {
  return run("DeleteLink", c, q, r, &LinksService::deleteLink);
}

}  // namespace feedback::links
