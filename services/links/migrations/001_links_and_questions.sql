CREATE TABLE links (
  uuid uuid PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  name text NOT NULL,
  slug text NOT NULL,
  status text NOT NULL,
  description text,
  thank_you_message text NOT NULL,
  redirect_url text,
  tts_enabled boolean NOT NULL,
  live_transcription boolean NOT NULL,
  date_created timestamptz NOT NULL DEFAULT clock_timestamp(),
  date_updated timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Deleting a link removes its row, so a deleted link's slug is free again.
CREATE UNIQUE INDEX links_slug_per_workspace ON links (workspace_uuid, slug);
CREATE INDEX links_newest_first ON links (workspace_uuid, date_created DESC, uuid DESC);

CREATE TABLE questions (
  uuid uuid PRIMARY KEY,
  link_uuid uuid NOT NULL REFERENCES links (uuid) ON DELETE CASCADE,
  -- Position in the request: the tie-breaker of `order`.
  position integer NOT NULL,
  prompt text NOT NULL,
  field_key text NOT NULL,
  response_type text NOT NULL,
  -- JSON objects kept as text so that they come back exactly as sent.
  configuration text NOT NULL,
  display_order integer NOT NULL,
  required boolean NOT NULL,
  condition text NOT NULL,
  enable_dynamic_probing boolean NOT NULL,
  fallback_to_text boolean NOT NULL,
  evaluator_config text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT clock_timestamp(),
  date_updated timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (link_uuid, field_key)
);

CREATE INDEX questions_by_link ON questions (link_uuid, display_order, position);
