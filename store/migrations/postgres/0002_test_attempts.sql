-- 0002 (PostgreSQL): SQLite's 0013. A test result keeps how many attempts
-- it took (1 + the retries it used), so that run history can tell a test
-- that passed on a retry (flaky) from one that passed at once; rows
-- written before have 1. Runs are listed per project newest first, so they
-- get an index on (project, id).

ALTER TABLE test_results ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;

CREATE INDEX runs_project ON runs (project, id);
