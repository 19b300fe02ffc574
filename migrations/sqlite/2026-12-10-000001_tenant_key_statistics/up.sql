-- The PostgreSQL migration of this name turns off the planner's statistics on
-- the tenant columns. SQLite keeps no per-value statistics unless ANALYZE is
-- run (the service never runs it), so there is nothing to change here.
SELECT 1;
