-- Changes of links' automatic on_finished webhooks still to be told to the webhooks service
-- (a transactional outbox): written by triggers in the transaction that creates or deletes
-- the link, so that none is lost, and removed once the webhooks service has applied them.
CREATE TABLE webhook_changes (
  id bigserial PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  link_uuid uuid NOT NULL,
  -- NULL: remove the link's webhooks.
  webhook_url text,
  webhook_secret_sealed text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX webhook_changes_by_link ON webhook_changes (link_uuid, id);

CREATE FUNCTION queue_webhook_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO links.webhook_changes (workspace_uuid, link_uuid, webhook_url,
                                       webhook_secret_sealed)
    VALUES (NEW.workspace_uuid, NEW.uuid, NEW.on_finished_webhook_url,
            NEW.on_finished_webhook_secret_sealed);
  ELSE
    INSERT INTO links.webhook_changes (workspace_uuid, link_uuid)
    VALUES (OLD.workspace_uuid, OLD.uuid);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER link_webhook_created AFTER INSERT ON links
  FOR EACH ROW WHEN (NEW.on_finished_webhook_url IS NOT NULL)
  EXECUTE FUNCTION queue_webhook_change();
CREATE TRIGGER link_webhook_deleted AFTER DELETE ON links
  FOR EACH ROW WHEN (OLD.on_finished_webhook_url IS NOT NULL)
  EXECUTE FUNCTION queue_webhook_change();

-- Links created before the webhooks service existed get their automatic webhooks too.
INSERT INTO webhook_changes (workspace_uuid, link_uuid, webhook_url, webhook_secret_sealed)
SELECT workspace_uuid, uuid, on_finished_webhook_url, on_finished_webhook_secret_sealed
FROM links WHERE on_finished_webhook_url IS NOT NULL ORDER BY date_created;
