-- 0007 (PostgreSQL): SQLite's 0018. A test's use step is followed by the
-- steps of the flow it ran, one level deeper (depth 0: a test's own step).

ALTER TABLE step_results ADD COLUMN depth BIGINT NOT NULL DEFAULT 0 CHECK (depth >= 0);
