#pragma once
// Thin adapter of MediaService: uploads are taken in as the gateway streams them and handed to
// MediaAnswers on the worker pool once whole; reads stream a few chunks at a time
// (media_read_stream.h); prompts read aloud are loaded on the worker pool and streamed back.

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/responses/v1/media.grpc.pb.h"
#include "services/responses/media/media_answers.h"
#include "services/responses/media/speech_synthesizer.h"
#include "services/responses/media/transcriber.h"

namespace feedback::responses {

class MediaGrpc final : public v1::MediaService::CallbackService {
 public:
  // `live`: the decoders live transcription borrows (as many streams at once as it holds).
  MediaGrpc(MediaAnswers& media, SpeechSynthesizer& speech, TranscriberPool& live, PgPool& pool,
            Counters& counters)
      : media_(media), speech_(speech), live_(live), pool_(pool), counters_(counters) {}

  grpc::ServerReadReactor<v1::UploadAnswerMediaRequest>* UploadAnswerMedia(
      grpc::CallbackServerContext* context, v1::UploadAnswerMediaResponse* response) override;
  grpc::ServerWriteReactor<v1::ReadMediaResponse>* ReadMedia(
      grpc::CallbackServerContext* context, const v1::ReadMediaRequest* request) override;
  grpc::ServerWriteReactor<v1::SpeakTextResponse>* SpeakText(
      grpc::CallbackServerContext* context, const v1::SpeakTextRequest* request) override;
  grpc::ServerBidiReactor<v1::TranscribeLiveRequest, v1::TranscribeLiveResponse>* TranscribeLive(
      grpc::CallbackServerContext* context) override;

 private:
  MediaAnswers& media_;
  SpeechSynthesizer& speech_;
  TranscriberPool& live_;
  PgPool& pool_;
  Counters& counters_;
};

}  // namespace feedback::responses
