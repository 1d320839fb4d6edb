-- 0002: every request to a language model: what for, how big, how long,
-- how it ended and what it cost. Message contents are never stored.

CREATE TABLE model_calls (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER REFERENCES runs (id) ON DELETE CASCADE, -- NULL outside a run
    at          TEXT    NOT NULL,
    purpose     TEXT    NOT NULL CHECK (purpose IN ('locate', 'act', 'heal', 'assert')),
    model       TEXT    NOT NULL DEFAULT '',
    tokens_in   INTEGER NOT NULL DEFAULT 0,
    tokens_out  INTEGER NOT NULL DEFAULT 0,
    latency_ms  INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 1,
    outcome     TEXT    NOT NULL DEFAULT 'ok',
    cost        REAL    NOT NULL DEFAULT 0
);

CREATE INDEX model_calls_run ON model_calls (run_id);
