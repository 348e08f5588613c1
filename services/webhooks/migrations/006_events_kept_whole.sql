-- A kept event's payload stays in its row, uncompressed, up to a page (8160 bytes), as the
-- outbox row it came from does (responses/008): below that, TOAST's second heap and index
-- (and lz4) cost more per event than the bytes they save.
ALTER TABLE events SET (toast_tuple_target = 8160);
