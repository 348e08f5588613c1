-- A response's answers and an event's payload stay in their row, uncompressed, up to a page
-- (8160 bytes): PostgreSQL's default (2032) sent a 32-answer response's answers (9.5 kB, lz4 to
-- 4.5 kB) and its event's payload to the TOAST tables, a second heap and index written per
-- row and, for the outbox, deleted again by the fan-out; and it compressed every 5-answer
-- response's 2 kB. Above a page, values are still compressed (lz4) and, should that not be
-- enough, moved out. Rows written before keep their form.
ALTER TABLE responses SET (toast_tuple_target = 8160);
ALTER TABLE outbox_events SET (toast_tuple_target = 8160);
