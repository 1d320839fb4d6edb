-- 0012: re-identification. A step whose cached selectors missed and whose
-- element was found again by its likeness to the recorded node has the
-- status 're-identified', and keeps how sure that was (score, runner-up)
-- in reidentified ('{}' for any other step). An element cache row keeps
-- where its element stood when it was recorded (neighbour text, containers)
-- in context; rows written before have '{}' and are re-identified by the
-- node alone.
--
-- SQLite cannot change a CHECK constraint, so step_results is rebuilt with
-- every row (no table refers to it; it has no index but its primary key).

CREATE TABLE step_results_rebuilt (
    test_id      INTEGER NOT NULL REFERENCES test_results (id) ON DELETE CASCADE,
    idx          INTEGER NOT NULL,
    line         INTEGER NOT NULL DEFAULT 0,
    command      TEXT    NOT NULL DEFAULT '',
    kind         TEXT    NOT NULL DEFAULT '',
    status       TEXT    NOT NULL
        CHECK (status IN ('hit', 'located', 're-located', 're-identified', 'passed', 'failed', 'skipped')),
    cache        TEXT    NOT NULL DEFAULT 'none'
        CHECK (cache IN ('hit', 'miss', 'none')),
    miss_reason  TEXT    NOT NULL DEFAULT '',
    error        TEXT    NOT NULL DEFAULT '',
    screenshot   TEXT    NOT NULL DEFAULT '',
    duration_ms  INTEGER NOT NULL DEFAULT 0,
    llm_calls    INTEGER NOT NULL DEFAULT 0,
    note         TEXT    NOT NULL DEFAULT '',
    reidentified TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(reidentified)), -- {score, runnerUp, second}
    PRIMARY KEY (test_id, idx)
);

INSERT INTO step_results_rebuilt (test_id, idx, line, command, kind, status, cache, miss_reason, error, screenshot,
    duration_ms, llm_calls, note)
SELECT test_id, idx, line, command, kind, status, cache, miss_reason, error, screenshot,
    duration_ms, llm_calls, note
FROM step_results;
DROP TABLE step_results;
ALTER TABLE step_results_rebuilt RENAME TO step_results;

ALTER TABLE element_cache ADD COLUMN context TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(context)); -- session.NodeContext
