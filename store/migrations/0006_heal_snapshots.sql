-- 0006: the page around a heal: the accessibility outline when the replay
-- failed (what the agent was shown) and when the heal reached the goal,
-- secret values redacted, so a reviewer sees what changed in the app.

ALTER TABLE heals ADD COLUMN page_before TEXT NOT NULL DEFAULT '';
ALTER TABLE heals ADD COLUMN page_after  TEXT NOT NULL DEFAULT '';
