-- 0005: heals: a trajectory repaired by the agent, old and new steps side
-- by side, staged for review until accepted (it replaces the trajectory)
-- or rejected (the old one stays and the test heals again next time).

CREATE TABLE heals (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    key           TEXT    NOT NULL,
    project       TEXT    NOT NULL DEFAULT '',
    test          TEXT    NOT NULL DEFAULT '',
    goal          TEXT    NOT NULL DEFAULT '',
    old_steps     TEXT    NOT NULL CHECK (json_valid(old_steps)),
    new_steps     TEXT    NOT NULL CHECK (json_valid(new_steps)),
    failed_index  INTEGER NOT NULL DEFAULT 0,
    reason        TEXT    NOT NULL DEFAULT '',
    postcondition TEXT    NOT NULL DEFAULT '',
    evidence      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(evidence)),
    status        TEXT    NOT NULL CHECK (status IN ('staged', 'accepted', 'rejected')),
    created_at    TEXT    NOT NULL,
    decided_at    TEXT,
    decided_by    TEXT    NOT NULL DEFAULT ''
);

CREATE INDEX heals_key ON heals (key, status);
