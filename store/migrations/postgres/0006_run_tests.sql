-- 0006 (PostgreSQL): SQLite's 0017. A run remembers the tests it set out to
-- run (after --grep and its shard), so that history tells a test the run did
-- not include (absent) from one it included but never ran (skipped).

CREATE TABLE run_tests (
    run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    name   TEXT   NOT NULL,
    PRIMARY KEY (run_id, name)
);
