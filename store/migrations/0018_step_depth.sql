-- 0018: flows. A test's use step is followed by the steps of the flow it
-- ran, one level deeper: depth is 0 for a test's own step, 1 for a step of
-- a flow it used, 2 for one of a flow that flow used. Rows stored before
-- are the tests' own steps (0).

ALTER TABLE step_results ADD COLUMN depth INTEGER NOT NULL DEFAULT 0 CHECK (depth >= 0);
