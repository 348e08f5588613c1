-- Every blob names the response it was uploaded to, so that one no answer holds any more (a
-- recording replaced, or an upload whose answer was never saved) can be found and deleted
-- (media/blob_collector.h); `kept` marks one a completed response holds, never looked at again.
ALTER TABLE blobs ADD COLUMN kept boolean NOT NULL DEFAULT false;
CREATE INDEX blobs_to_check ON blobs (created_at) WHERE NOT kept;
