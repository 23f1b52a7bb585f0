-- Change data capture: what the relay (or Debezium) needs from the schema.
--
-- REPLICA IDENTITY FULL makes update and delete events carry the whole row
-- before the change (Debezium's "before"), which projections need to undo
-- what a row contributed (a reaction deleted, a membership moved) and which
-- fills unchanged TOASTed columns. Tables added later set it in their own
-- migration: ALTER TABLE t REPLICA IDENTITY FULL.
ALTER TABLE users REPLICA IDENTITY FULL;
ALTER TABLE organizations REPLICA IDENTITY FULL;
ALTER TABLE profiles REPLICA IDENTITY FULL;
ALTER TABLE sessions REPLICA IDENTITY FULL;
ALTER TABLE tokens REPLICA IDENTITY FULL;
ALTER TABLE communities REPLICA IDENTITY FULL;
ALTER TABLE community_memberships REPLICA IDENTITY FULL;
ALTER TABLE series REPLICA IDENTITY FULL;
ALTER TABLE series_memberships REPLICA IDENTITY FULL;
ALTER TABLE dev_mail REPLICA IDENTITY FULL;

-- The heartbeat row that the relay (and Debezium's heartbeat.action.query)
-- rewrites when nothing else changes, so the replication slot's position
-- moves and Postgres can recycle WAL. Its changes are not emitted.
CREATE TABLE cdc_heartbeat (
    id      integer PRIMARY KEY,
    beat_on timestamptz NOT NULL
);

-- The relay's record of each slot's initial snapshot: a slot whose
-- snapshot was cut short by a crash is dropped and made again.
CREATE TABLE cdc_relay_state (
    slot_name        text PRIMARY KEY,
    snapshot_lsn     pg_lsn NOT NULL,
    snapshot_done_on timestamptz
);
