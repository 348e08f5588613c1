#pragma once
// One read of a stored file or recording (MediaService/ReadMedia): the header, with the range
// asked for resolved (media_reads.h), then the bytes in chunks loaded a few at a time on the
// worker pool as the gateway takes them, so that a reader holds at most a few chunks whatever
// the content's size, and a slow reader holds no worker.

#include <grpcpp/grpcpp.h>

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/responses/v1/media.grpc.pb.h"

namespace feedback::responses {

grpc::ServerWriteReactor<v1::ReadMediaResponse>* newMediaReadStream(
    grpc::CallbackServerContext* context, const v1::ReadMediaRequest* request, PgPool& pool,
    Counters& counters);

}  // namespace feedback::responses
