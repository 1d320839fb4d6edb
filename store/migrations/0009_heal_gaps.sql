-- 0009: the gaps of a heal's new steps (values the agent read off the
-- screen, and where), so that a staged heal replays them as a recorded
-- trajectory does, and an accepted one keeps them.

ALTER TABLE heals ADD COLUMN gaps TEXT NOT NULL DEFAULT '[]';
