-- The search index's pending list may grow to 32 MB (PostgreSQL's default is 4 MB) before a
-- statement that adds to it must merge it itself: the responses service merges it every
-- second (SEARCH_INDEX_MERGE_MS), and a merge costs per key it touches as well as per entry,
-- so that merging a second's responses at once costs about half of merging them in five
-- parts (74 against 144 microseconds a response of 32 types, 1,250 against 250 at a time). A
-- second at 4,000 submissions of 233 trigrams each adds about 28 MB; searches read what is
-- pending, a few milliseconds at most.
ALTER INDEX responses_search SET (gin_pending_list_limit = 32768);
