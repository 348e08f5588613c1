-- Respondents' files and recordings (docs/api.md "Media"), stored in chunks so that
-- neither a write nor a read needs the whole content in one value. A recording waiting for
-- its transcription carries what its transcription worker needs: the answer it belongs to
-- and the link as it was (serialised feedback.responses.v1.IntakeLink), so that the answer's
-- insights are judged by the question it answered.
CREATE TABLE blobs (
  uuid uuid PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  content_type text NOT NULL,
  file_name text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  response_uuid uuid,
  field_key text,
  transcription_link bytea,
  transcription_attempts integer NOT NULL DEFAULT 0,
  -- Set while a transcription is to be made: when a worker may next claim it.
  transcription_due_at timestamptz
);

CREATE INDEX blobs_transcription_due ON blobs (transcription_due_at)
  WHERE transcription_due_at IS NOT NULL;

-- Chunks are compressed media already: stored as they are, out of line.
CREATE TABLE blob_chunks (
  blob_uuid uuid NOT NULL REFERENCES blobs (uuid) ON DELETE CASCADE,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (blob_uuid, seq)
);
ALTER TABLE blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

-- Prompts read aloud, rendered once per text and voice.
CREATE TABLE speech_cache (
  text_sha256 text PRIMARY KEY,
  wav bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
ALTER TABLE speech_cache ALTER COLUMN wav SET STORAGE EXTERNAL;
