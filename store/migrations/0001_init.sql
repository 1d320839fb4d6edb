-- 0001: runs, their test and step results, and the element cache.
--
-- Times are TEXT in UTC, "2006-01-02T15:04:05.000000000Z", so that they sort
-- as strings and read well in the sqlite3 shell. JSON columns are checked
-- with json_valid so that a bad write fails instead of poisoning reads.

CREATE TABLE runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project     TEXT    NOT NULL DEFAULT '',
    started_at  TEXT    NOT NULL,
    finished_at TEXT,                              -- NULL while running
    status      TEXT    NOT NULL DEFAULT 'running',
    branch      TEXT    NOT NULL DEFAULT '',
    git_commit  TEXT    NOT NULL DEFAULT '',
    version     TEXT    NOT NULL DEFAULT ''        -- the tool's version
);

CREATE TABLE test_results (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    file        TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL,
    error       TEXT    NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL DEFAULT 0
);

-- Tests(runID) and the cascade from runs.
CREATE INDEX test_results_run ON test_results (run_id);
-- LatestTestDurations: the newest row per name.
CREATE INDEX test_results_name ON test_results (name, id);

CREATE TABLE step_results (
    test_id     INTEGER NOT NULL REFERENCES test_results (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    line        INTEGER NOT NULL DEFAULT 0,
    command     TEXT    NOT NULL DEFAULT '',
    kind        TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL
        CHECK (status IN ('hit', 'located', 're-located', 'passed', 'failed', 'skipped')),
    cache       TEXT    NOT NULL DEFAULT 'none'
        CHECK (cache IN ('hit', 'miss', 'none')),
    miss_reason TEXT    NOT NULL DEFAULT '',
    error       TEXT    NOT NULL DEFAULT '',
    screenshot  TEXT    NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL DEFAULT 0,
    llm_calls   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (test_id, idx)
);

CREATE TABLE element_cache (
    key         TEXT    NOT NULL PRIMARY KEY,
    project     TEXT    NOT NULL DEFAULT '',
    test        TEXT    NOT NULL DEFAULT '',
    description TEXT    NOT NULL DEFAULT '',
    selectors   TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(selectors)),
    node        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(node)),
    intent      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(intent)),
    created_at  TEXT    NOT NULL,
    used_at     TEXT    NOT NULL,
    hits        INTEGER NOT NULL DEFAULT 0
);

-- Listing or clearing the cache of one test.
CREATE INDEX element_cache_test ON element_cache (project, test);
