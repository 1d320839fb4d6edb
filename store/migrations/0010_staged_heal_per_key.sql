-- 0010: one staged heal per key and branch. Parallel runs that heal the
-- same act used to stage one heal each, and accepting one left the others
-- standing in for the trajectory. Now a later identical heal joins the
-- staged one (seen, last_seen_at), a different one supersedes it (status
-- 'superseded', superseded_by), and a unique index on the staged heals of
-- a key and branch makes a second one impossible. The table is rebuilt to
-- allow the new status.

CREATE TABLE heals_rebuilt (
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
    status        TEXT    NOT NULL CHECK (status IN ('staged', 'accepted', 'rejected', 'superseded')),
    created_at    TEXT    NOT NULL,
    decided_at    TEXT,
    decided_by    TEXT    NOT NULL DEFAULT '',
    page_before   TEXT    NOT NULL DEFAULT '',
    page_after    TEXT    NOT NULL DEFAULT '',
    branch        TEXT    NOT NULL DEFAULT '',
    git_commit    TEXT    NOT NULL DEFAULT '',
    depth         INTEGER NOT NULL DEFAULT 0,
    version       TEXT    NOT NULL DEFAULT '',
    gaps          TEXT    NOT NULL DEFAULT '[]',
    seen          INTEGER NOT NULL DEFAULT 1,  -- runs that proposed this heal
    last_seen_at  TEXT,                        -- when the last of them did; NULL: created_at
    superseded_by INTEGER                      -- the heal that replaced a superseded one
);

INSERT INTO heals_rebuilt (id, key, project, test, goal, old_steps, new_steps, failed_index, reason, postcondition,
    evidence, status, created_at, decided_at, decided_by, page_before, page_after, branch, git_commit, depth, version, gaps)
SELECT id, key, project, test, goal, old_steps, new_steps, failed_index, reason, postcondition,
    evidence, status, created_at, decided_at, decided_by, page_before, page_after, branch, git_commit, depth, version, gaps
FROM heals;
DROP TABLE heals;
ALTER TABLE heals_rebuilt RENAME TO heals;
CREATE INDEX heals_key ON heals (key, status);

-- Duplicates staged before: the newest of a key and branch stays staged.
CREATE TEMP TABLE newest_staged AS
    SELECT key, branch, max(id) AS id FROM heals WHERE status = 'staged' GROUP BY key, branch;
UPDATE heals SET status = 'superseded', decided_by = 'e2e',
    superseded_by = (SELECT n.id FROM newest_staged n WHERE n.key = heals.key AND n.branch = heals.branch),
    decided_at = (SELECT h.created_at FROM heals h JOIN newest_staged n ON h.id = n.id
                  WHERE n.key = heals.key AND n.branch = heals.branch)
WHERE status = 'staged'
  AND id < (SELECT n.id FROM newest_staged n WHERE n.key = heals.key AND n.branch = heals.branch);
DROP TABLE newest_staged;

CREATE UNIQUE INDEX heals_staged ON heals (key, branch) WHERE status = 'staged';
