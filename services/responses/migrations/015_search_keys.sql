-- migration: outside a transaction
-- Search by keys of the link's own. The trigram index (workspace, link, trigrams) kept one
-- posting list per trigram for every link at once: a search in one link walked the entries of
-- every link that shares its trigrams, and the link's and workspace's own lists, so that a rare
-- word in a link of 100,000 cost 1.7 ms of index at 2 million responses and more as the table
-- grew (search afresh fell from 1,110 to 650 a second). Each response now carries the keys of
-- its folded text: a hash of each of its trigrams (pg_trgm's, as the old index had them) XORed
-- with a hash of its link. A key's posting list holds that link's rows only, and a search
-- reads those of its term (7 for "zebracorn") to find the link's matches: 0.02 ms whatever
-- the table holds. Keys are a necessary condition (a hash may collide); LIKE still decides.
--
-- The keys are computed here, from the text as folded, by the trigger that folds it, and a
-- search's from its term by the same functions: one definition, whatever writes the row.
DROP INDEX CONCURRENTLY IF EXISTS responses_search;
-- The column's lock is brief, but waiting for it behind a long read (a summary, an export) would
-- hold every submission queued behind it: it is asked for 2 s at a time.
DO $$
BEGIN
  FOR attempt IN 1..30 LOOP
    BEGIN
      PERFORM set_config('lock_timeout', '2s', true);
      ALTER TABLE responses.responses ADD COLUMN IF NOT EXISTS search_keys int4[];
      RETURN;
    EXCEPTION WHEN lock_not_available THEN
      PERFORM pg_sleep(1);
    END;
  END LOOP;
  RAISE EXCEPTION 'responses.responses stayed locked: search_keys not added';
END $$;
-- A link's part of its keys: a hash of its uuid.
CREATE OR REPLACE FUNCTION responses.link_search_key(link uuid) RETURNS int4
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT uuid_hash(link) $$;
-- The keys of `folded` (already lower case) in the link whose key is `link_key`.
CREATE OR REPLACE FUNCTION responses.search_keys_of(link_key int4, folded text) RETURNS int4[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT hashtext(t) # link_key FROM unnest(public.show_trgm(folded)) AS t) $$;
-- The trigrams every text that holds `term` (folded) has: pg_trgm pads each word with spaces,
-- but a word at either end of a term may go on in the text, so the trigrams of the term's
-- first two and last two characters, where that padding is, are left out (some of them may
-- be in the text after all; fewer keys only find more rows for LIKE to turn down). A term
-- that has none (one or two letters a word) is looked for without keys.
CREATE OR REPLACE FUNCTION responses.term_trigrams(term text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT unnest(public.show_trgm(term))
                     EXCEPT SELECT unnest(public.show_trgm(left(term, 2)))
                     EXCEPT SELECT unnest(public.show_trgm(right(term, 2)))) $$;
CREATE OR REPLACE FUNCTION responses.term_keys(link_key int4, term text) RETURNS int4[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT hashtext(t) # link_key
                     FROM unnest(responses.term_trigrams(term)) AS t) $$;
CREATE OR REPLACE FUNCTION responses.fold_search_text() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(NEW.search_text);
  NEW.search_keys := responses.search_keys_of(responses.link_search_key(NEW.link_uuid),
                                              NEW.search_text);
  RETURN NEW;
END $$;
-- The rows written before, in batches of 10,000 committed one by one (writes go on meanwhile),
-- in uuid order, before the index exists (built at once rather than row by row).
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
      WHERE uuid > last AND uuid <= next AND search_keys IS NULL;
    COMMIT;
    last := next;
  END LOOP;
END $$;
-- The pending list may grow to 32 MB, as the trigram index's did (migration 010); the
-- responses service merges it every second (search_index_merger.h).
DROP INDEX CONCURRENTLY IF EXISTS responses_search_keys;
CREATE INDEX CONCURRENTLY responses_search_keys ON responses USING gin (search_keys)
  WITH (gin_pending_list_limit = 32768);
-- A row that a replica of the previous version inserted between the column and the trigger,
-- committed after the batches passed its uuid. Building the index waited for every
-- transaction older than it, so none is still to come.
UPDATE responses.responses SET search_text = search_text WHERE search_keys IS NULL;
