#pragma once
// One live transcription (docs/api.md "Media"; relayed by the gateway's WebSocket):
// the target is checked first, then 16 kHz PCM is fed to a borrowed decoder as it arrives and
// the best hypothesis so far goes back whenever it changes; at `end` the recording is stored
// with its final transcription as the answer. A stream is bounded by the question's
// max_duration (else an hour) and by the API's audio size limit.

#include <grpcpp/grpcpp.h>

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/responses/v1/media.grpc.pb.h"
#include "services/responses/media/media_answers.h"
#include "services/responses/media/transcriber.h"

namespace feedback::responses {

grpc::ServerBidiReactor<v1::TranscribeLiveRequest, v1::TranscribeLiveResponse>*
newLiveTranscription(grpc::CallbackServerContext* context, MediaAnswers& media,
                     TranscriberPool& transcribers, PgPool& pool, Counters& counters);

}  // namespace feedback::responses
