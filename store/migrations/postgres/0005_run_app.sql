-- 0005 (PostgreSQL): SQLite's 0016. A run remembers the app it tested (its
-- base URL) and the fixture variant it ran, so that history counts a test as
-- flaky only when it failed and passed against the same app.

ALTER TABLE runs ADD COLUMN base_url TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN variant TEXT NOT NULL DEFAULT '';
