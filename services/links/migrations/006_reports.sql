-- Shared reports of a link's results (docs/api.md "Shared reports"). Only the token's SHA-256
-- is kept. A report goes with its link.
CREATE TABLE reports (
  uuid uuid PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  link_uuid uuid NOT NULL REFERENCES links (uuid) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  include_text boolean NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- A link's live reports, newest first.
CREATE INDEX reports_of_link ON reports (workspace_uuid, link_uuid, date_created DESC, uuid DESC)
  WHERE revoked_at IS NULL;
