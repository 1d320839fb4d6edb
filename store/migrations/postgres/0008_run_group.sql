-- 0008 (PostgreSQL): SQLite's 0019. A run remembers the group of runs it
-- belongs to (the shards of one CI run share one); runs stored before
-- belong to no group ('').

ALTER TABLE runs ADD COLUMN run_group TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_group ON runs (run_group, id) WHERE run_group <> '';
