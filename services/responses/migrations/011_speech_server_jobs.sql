-- Recordings a speech server is to transcribe (TRANSCRIBER=openai), queued once the local
-- transcript is stored, so that the answer reads at once and none is lost to a restart. The
-- responses services' speech-server workers claim them (FOR UPDATE SKIP LOCKED); a claim
-- leases a job by moving due_at past the call's deadline, so one whose worker died comes due
-- again for another. Each row carries what applying the server's text needs: the answer the
-- recording belongs to and the link as it was (serialised feedback.responses.v1.IntakeLink).
CREATE TABLE speech_server_jobs (
  blob_uuid uuid PRIMARY KEY REFERENCES blobs (uuid) ON DELETE CASCADE,
  workspace_uuid uuid NOT NULL,
  response_uuid uuid NOT NULL,
  field_key text NOT NULL,
  link bytea NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  due_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX speech_server_jobs_due ON speech_server_jobs (due_at);

-- Whether a recording waiting for its local transcription goes to the speech server next:
-- decided by the replica that took the upload, so that any replica may make the local one.
ALTER TABLE blobs ADD COLUMN speech_server boolean NOT NULL DEFAULT false;
