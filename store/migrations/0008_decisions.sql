-- 0006: decisions taken in the studio on proposed steps: approved, edited
-- (with the command that ran instead), rejected (with the reason sent back
-- to the agent), approved for the rest of an act, or skipped; who and when.

CREATE TABLE decisions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER,
    project     TEXT    NOT NULL DEFAULT '',
    test        TEXT    NOT NULL DEFAULT '',
    kind        TEXT    NOT NULL CHECK (kind IN ('agent', 'replay', 'step')),
    step_index  INTEGER NOT NULL DEFAULT 0,
    goal        TEXT    NOT NULL DEFAULT '',
    proposed    TEXT    NOT NULL,
    verdict     TEXT    NOT NULL CHECK (verdict IN ('approve', 'edit', 'reject', 'approve-rest', 'skip')),
    command     TEXT    NOT NULL DEFAULT '',
    reason      TEXT    NOT NULL DEFAULT '',
    decided_by  TEXT    NOT NULL DEFAULT '',
    decided_at  TEXT    NOT NULL
);

CREATE INDEX decisions_run ON decisions (run_id, id);
