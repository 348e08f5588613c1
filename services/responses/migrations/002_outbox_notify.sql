-- Wakes the webhooks dispatchers (LISTEN responses_outbox) when events are written, so that
-- they need not poll. One notification per transaction: PostgreSQL folds identical ones.
CREATE FUNCTION notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('responses_outbox', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
  FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox();
