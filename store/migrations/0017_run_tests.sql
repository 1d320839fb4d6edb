-- 0017: a run remembers the tests it set out to run (after --grep and its
-- shard), so that history tells a test the run did not include (another
-- file, filtered out: absent) from one it included but never ran (the run
-- was interrupted: skipped). Runs stored before have no rows here: every
-- test without a result in them reads as absent.

CREATE TABLE run_tests (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    name   TEXT    NOT NULL,
    PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
