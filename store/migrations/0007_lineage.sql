-- 0006: cache lineage. Element cache entries and trajectories become rows
-- per (key, branch, commit, tool version), so that caches follow git
-- branches: a branch reads its own rows, then main's as of the merge base,
-- then main's; a tool version never reads rows of a newer one. Each row
-- keeps the identity its key was computed from (canonical JSON).
--
-- depth is the first-parent depth of the commit the row was written at;
-- version_key is the version in a form that sorts as versions do.

CREATE TABLE element_cache_rows (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL,
    branch      TEXT    NOT NULL DEFAULT '',
    git_commit  TEXT    NOT NULL DEFAULT '',
    depth       INTEGER NOT NULL DEFAULT 0,
    version     TEXT    NOT NULL DEFAULT '',
    version_key TEXT    NOT NULL DEFAULT '',
    identity    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(identity)),
    project     TEXT    NOT NULL DEFAULT '',
    test        TEXT    NOT NULL DEFAULT '',
    description TEXT    NOT NULL DEFAULT '',
    selectors   TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(selectors)),
    node        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(node)),
    intent      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(intent)),
    created_at  TEXT    NOT NULL,
    used_at     TEXT    NOT NULL,
    hits        INTEGER NOT NULL DEFAULT 0,
    UNIQUE (key, branch, git_commit, version)
);

INSERT INTO element_cache_rows (key, project, test, description, selectors, node, intent, created_at, used_at, hits)
SELECT key, project, test, description, selectors, node, intent, created_at, used_at, hits FROM element_cache;
DROP TABLE element_cache;
ALTER TABLE element_cache_rows RENAME TO element_cache;

-- The lookup: every row of a key (the UNIQUE index leads with key), then
-- the lineage rules pick one. Listing by test; pruning by last use.
CREATE INDEX element_cache_test ON element_cache (project, test);
CREATE INDEX element_cache_used ON element_cache (used_at);

CREATE TABLE trajectory_rows (
    id            INTEGER PRIMARY KEY,
    key           TEXT    NOT NULL,
    branch        TEXT    NOT NULL DEFAULT '',
    git_commit    TEXT    NOT NULL DEFAULT '',
    depth         INTEGER NOT NULL DEFAULT 0,
    version       TEXT    NOT NULL DEFAULT '',
    version_key   TEXT    NOT NULL DEFAULT '',
    identity      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(identity)),
    project       TEXT    NOT NULL DEFAULT '',
    test          TEXT    NOT NULL DEFAULT '',
    goal          TEXT    NOT NULL DEFAULT '',
    steps         TEXT    NOT NULL CHECK (json_valid(steps)),
    postcondition TEXT    NOT NULL DEFAULT '',
    evidence      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(evidence)),
    gaps          TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(gaps)), -- values replay reads off the screen again
    created_at    TEXT    NOT NULL,
    used_at       TEXT    NOT NULL,
    hits          INTEGER NOT NULL DEFAULT 0,
    UNIQUE (key, branch, git_commit, version)
);

INSERT INTO trajectory_rows (key, project, test, goal, steps, postcondition, evidence, created_at, used_at)
SELECT key, project, test, goal, steps, postcondition, evidence, created_at, used_at FROM trajectories;
DROP TABLE trajectories;
ALTER TABLE trajectory_rows RENAME TO trajectories;

CREATE INDEX trajectories_test ON trajectories (project, test);
CREATE INDEX trajectories_used ON trajectories (used_at);

-- A staged heal belongs to the branch it was made on until it is accepted.
ALTER TABLE heals ADD COLUMN branch TEXT NOT NULL DEFAULT '';
ALTER TABLE heals ADD COLUMN git_commit TEXT NOT NULL DEFAULT '';
ALTER TABLE heals ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
ALTER TABLE heals ADD COLUMN version TEXT NOT NULL DEFAULT '';
