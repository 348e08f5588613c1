-- Questions are always read and written as a whole list, so they live in their link's row as
-- one JSON array: a read is one query and a write one row (no per-question index entries).
-- Existing questions move over unchanged, in display order, with their timestamps.
ALTER TABLE links ADD COLUMN questions text NOT NULL DEFAULT '[]';

UPDATE links l SET questions = q.document
FROM (
  SELECT link_uuid, json_agg(json_build_object(
      'uuid', uuid, 'prompt', prompt, 'field_key', field_key, 'response_type', response_type,
      'configuration', configuration::json, 'order', display_order, 'required', required,
      'condition', condition::json, 'enable_dynamic_probing', enable_dynamic_probing,
      'fallback_to_text', fallback_to_text, 'evaluator_config', evaluator_config::json,
      'date_created', (extract(epoch FROM date_created) * 1000000)::bigint,
      'date_updated', (extract(epoch FROM date_updated) * 1000000)::bigint)
    ORDER BY display_order, position)::text AS document
  FROM questions GROUP BY link_uuid) q
WHERE l.uuid = q.link_uuid;

DROP TABLE questions;
