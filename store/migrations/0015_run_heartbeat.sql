-- 0015: a run writes a heartbeat while it runs (every HeartbeatEvery), so
-- that a run whose machine never comes back (a CI runner gone) can be
-- marked 'interrupted' once it has been silent for StaleAfter, where its
-- process cannot be looked for. NULL: none yet (the start counts).

ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;
