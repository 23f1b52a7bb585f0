-- Every forum visit, not only each member's latest (series_visits): the
-- insights count visits per member over a period (spec 002 §3 members
-- report), and the warehouse is rebuilt from a snapshot of Postgres, so
-- the history has to live here. Rows are only ever inserted; a forum's or
-- a user's deletion takes theirs.
CREATE TABLE series_visit_log (
    id         uuid PRIMARY KEY,
    series_id  uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    visited_on timestamptz NOT NULL
);
ALTER TABLE series_visit_log REPLICA IDENTITY FULL;
CREATE INDEX series_visit_log_series ON series_visit_log (series_id, visited_on);
CREATE INDEX series_visit_log_user ON series_visit_log (user_id);
