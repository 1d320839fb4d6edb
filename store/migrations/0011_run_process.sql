-- 0011: the process that records a run: its id, host and start (an opaque
-- token, e.g. the boot and start time of the process on Linux), so that a
-- run whose process is gone — killed, crashed, the machine rebooted — can be
-- marked 'interrupted' instead of staying 'running' forever.

ALTER TABLE runs ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;    -- 0: not recorded
ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN process_start TEXT NOT NULL DEFAULT '';

CREATE INDEX runs_running ON runs (status) WHERE status = 'running';
