-- Room on every media page for a changed row to stay on its page (a HOT update): a like, an
-- unlike, a caption or a flag changes one media row, and a row that has to move to another page
-- gets a new entry in every one of media's indexes (22 at this migration, two of them GIN words
-- indexes). At a million media, 100,000 like counts updated without room left the wall's caption
-- words index slow to search ("caption 129990": 1.46 ms against 0.07 ms after a REINDEX) even
-- after VACUUM; with room the same updates change no index (docs/benchmarks.md, "Word search").
-- Applies to pages written from now on; an existing installation's media are rewritten with room
-- by VACUUM FULL media (or pg_repack) in a quiet hour (docs/operations.md).
ALTER TABLE media SET (fillfactor = 90);
