-- Claims walk the webhooks that have sends queued and take the due ones of each in order:
-- one index probe per webhook, whatever the backlog of a slow one.
CREATE INDEX pending_by_webhook_due ON pending (webhook_uuid, due_at, id);
DROP INDEX pending_by_webhook;
