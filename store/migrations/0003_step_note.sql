-- 0003: a note on a step result: the model's reasoning for an assert step
-- (pass or fail), so that a verdict can be explained after the fact.

ALTER TABLE step_results ADD COLUMN note TEXT NOT NULL DEFAULT '';
