-- The orders of a link's questions that its responses' summary facts name questions by
-- (summary_facts.h): a line then holds a position, or nothing for the next question, instead
-- of a 12-digit ref, half the bytes a summary reads. Written with the first facts that use
-- one (ON CONFLICT DO NOTHING), never changed; a summary reads its link's before its facts.
CREATE TABLE facts_layouts (
  link_uuid uuid NOT NULL,
  -- 16 hex digits of a hash of question_uuids.
  id text NOT NULL,
  -- The question uuids in the link's order, comma-separated.
  question_uuids text NOT NULL,
  PRIMARY KEY (link_uuid, id)
);
