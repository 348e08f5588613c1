-- A link's `changes`, summed over its shards' rows (or a workspace's), moves whenever a list of
-- its responses may have: every write that changes a row's counts (a response added,
-- completed or removed) adds one, by this trigger, whatever writes it (a replica of the version
-- before this one included, which knows nothing of the column). Pages read at a sum that has
-- not moved since can be continued from their rows (page_anchors.h): a deep page seeks to where
-- the last one ended instead of skipping every row before it.
ALTER TABLE link_counts ADD COLUMN changes bigint NOT NULL DEFAULT 0;

CREATE FUNCTION responses.count_link_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.changes := 1;
  ELSIF NEW.started IS DISTINCT FROM OLD.started OR NEW.completed IS DISTINCT FROM OLD.completed THEN
    NEW.changes := OLD.changes + 1;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER count_link_change BEFORE INSERT OR UPDATE ON link_counts
  FOR EACH ROW EXECUTE FUNCTION responses.count_link_change();
