-- 0004: trajectories recorded by act steps: the step commands (with the
-- cache ids of their elements) and the evidence of the end state.

CREATE TABLE trajectories (
    key           TEXT PRIMARY KEY,
    project       TEXT NOT NULL DEFAULT '',
    test          TEXT NOT NULL DEFAULT '',
    goal          TEXT NOT NULL DEFAULT '',
    steps         TEXT NOT NULL CHECK (json_valid(steps)),
    postcondition TEXT NOT NULL DEFAULT '',
    evidence      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(evidence)),
    created_at    TEXT NOT NULL,
    used_at       TEXT NOT NULL
);
