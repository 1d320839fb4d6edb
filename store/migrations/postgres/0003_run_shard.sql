-- 0003 (PostgreSQL): SQLite's 0014. A run remembers which shard of its
-- suite it ran ("2/4", "" for the whole suite), so that run history does not
-- count a test another shard ran as skipped in this one.

ALTER TABLE runs ADD COLUMN shard TEXT NOT NULL DEFAULT '';
