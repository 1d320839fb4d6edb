-- 0019: a run remembers the group of runs it belongs to: the shards of one
-- CI run share one (--run-group, by default the CI's own run id), so that
-- `e2e report --run-group ID` builds one report from them. Runs stored
-- before belong to no group ('').

ALTER TABLE runs ADD COLUMN run_group TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_group ON runs (run_group, id) WHERE run_group <> '';
