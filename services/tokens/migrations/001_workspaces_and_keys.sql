CREATE TABLE workspaces (
  uuid uuid PRIMARY KEY,
  name text NOT NULL,
  subdomain text NOT NULL UNIQUE,
  plan text NOT NULL,
  -- NULL: the plan's default.
  rate_limit integer,
  link_quota integer,
  date_created timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE api_keys (
  uuid uuid PRIMARY KEY,
  workspace_uuid uuid NOT NULL REFERENCES workspaces (uuid),
  name text NOT NULL,
  prefix text NOT NULL,
  -- Lowercase hex SHA-256 of the full key; the key itself is never stored.
  key_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  date_created timestamptz NOT NULL DEFAULT clock_timestamp(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

CREATE INDEX api_keys_live_by_workspace ON api_keys (workspace_uuid, date_created DESC)
  WHERE revoked_at IS NULL;
