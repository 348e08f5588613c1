-- Every statement that adds, completes (or removes) responses of a link adds one to its
-- `changes` (on its shard's row, beside the counts it changes): the sum of a link's rows, or of
-- a workspace's, moves whenever a list of them may have, and only then. Pages read at a sum
-- that has not moved since can be continued from their rows (page_anchors.h): a deep page
-- seeks to where the last one ended instead of skipping every row before it.
ALTER TABLE link_counts ADD COLUMN changes bigint NOT NULL DEFAULT 0;
