-- migration: outside a transaction
-- search_text is kept in lower case (PostgreSQL's lower(), as ILIKE folds both sides), so that a
-- search compares bytes (LIKE) instead of folding every candidate row's text again: ILIKE's
-- recheck took 10 microseconds a row, 0.6 s for a word in 60,000 responses of a link, and a
-- seventh of a rare word's search. The trigger folds whatever writes the row, a replica still
-- running the code before this change included, so that no row is ever left unfolded.
CREATE OR REPLACE FUNCTION responses.fold_search_text() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(NEW.search_text);
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS fold_search_text ON responses.responses;
CREATE TRIGGER fold_search_text BEFORE INSERT OR UPDATE OF search_text ON responses.responses
  FOR EACH ROW EXECUTE FUNCTION responses.fold_search_text();
-- The rows written before, in batches of 10,000 committed one by one (writes go on meanwhile),
-- in uuid order; a row that folds to itself is not written again.
DO $$
DECLARE
  last uuid := '00000000-0000-0000-0000-000000000000';
  next uuid;
BEGIN
  LOOP
    SELECT batch.uuid INTO next FROM (SELECT uuid FROM responses.responses WHERE uuid > last
      ORDER BY uuid LIMIT 10000) AS batch ORDER BY batch.uuid DESC LIMIT 1;
    EXIT WHEN next IS NULL;
    UPDATE responses.responses SET search_text = search_text
      WHERE uuid > last AND uuid <= next AND search_text <> lower(search_text);
    COMMIT;
    last := next;
  END LOOP;
END $$;
