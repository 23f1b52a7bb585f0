-- The insights warehouse (issue 7): activity facts and their daily
-- counts, the dimensions the projection keeps current, the visits
-- aggregate and the watermark. The
-- analytics projection (projections/insights) is the only writer; what
-- each table holds, and how deletes, edits and replays behave, is in
-- analytics/README.md.
--
-- Ids are UUIDs; the nil UUID (00000000-0000-0000-0000-000000000000) stands
-- for "none" (an anonymous asker, a fact without a post). Times are UTC:
-- epoch milliseconds (18.16 has no DateTime64) and the Date of them.

-- One row per (kind, object) state: a post, a comment, a reaction, a visit…
-- and each of its aspects (a post with an image also has an image fact).
-- A change writes the kinds its object has, and, with active = 0, those
-- it takes away (read from the change's before-image: all of them for a
-- delete, an image removed by an edit…), with version = the commit LSN of
-- the change: ReplacingMergeTree keeps the newest state of each key, and
-- the reports read it deduplicated (argMax by key), so a replayed change
-- never counts twice and a deletion or an edit shows.
CREATE TABLE IF NOT EXISTS facts (
    series_id    UUID,
    kind         String,
    day          Date,
    object_id    UUID,
    community_id UUID,
    channel_id   UUID,
    post_id      UUID,
    actor_id     UUID,
    anonymous    UInt8,
    occurred_ms  UInt64,
    n            UInt32,
    detail       String,
    active       UInt8,
    version      UInt64,
    occurred_on  DateTime ALIAS toDateTime(intDiv(occurred_ms, 1000))
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(day)
ORDER BY (series_id, kind, day, object_id);

-- The facts again, day first and only what the daily counts need: the
-- projection's recount of a batch's days reads these, so that it reads
-- only the days it recounts. (facts is sorted by forum first, and 18.16
-- cannot narrow a read by a set of UUIDs; a read of facts for a batch's
-- groups scans their whole months.) Filled by the view below from every
-- insert into facts; deduplicated the same way.
CREATE TABLE IF NOT EXISTS facts_by_day (
    day        Date,
    series_id  UUID,
    kind       String,
    object_id  UUID,
    channel_id UUID,
    anonymous  UInt8,
    n          UInt32,
    active     UInt8,
    version    UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(day)
ORDER BY (day, series_id, kind, object_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS facts_by_day_mv TO facts_by_day AS
    SELECT day, series_id, kind, object_id, channel_id, anonymous, n, active, version FROM facts;

-- The facts counted a day: per forum, kind, day and channel, the keys
-- active now (objects), the sum of their n and how many are anonymous.
-- The projection recomputes, after inserting a batch's facts, the rows of
-- every (forum, kind, day) the batch wrote, from facts deduplicated: a
-- recomputation, not a sum of inserts, so it is exact under replays,
-- deletions and edits. version is the sum, over the group's keys, of each
-- key's newest fact version: it grows with every change the read saw, so
-- the recomputation that saw the most wins, whatever order batches and
-- projectors run in. Read argMax(…, version) by key, or FINAL.
CREATE TABLE IF NOT EXISTS daily (
    series_id  UUID,
    kind       String,
    day        Date,
    channel_id UUID,
    objects    UInt64,
    n          UInt64,
    anonymous  UInt64,
    version    UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYear(day)
ORDER BY (series_id, kind, day, channel_id);

-- Where posts and AI searches live, and who made them (the nil UUID for an
-- anonymous question): none of it ever changes, and it stays known after
-- they are deleted, so the deletion of a comment or a reaction (whose row
-- names only its post) finds its forum even when the post went first.
-- Every copy of a row is the same.
CREATE TABLE IF NOT EXISTS parents (
    object_id  UUID,
    series_id  UUID,
    channel_id UUID,
    actor_id   UUID
) ENGINE = ReplacingMergeTree
ORDER BY object_id;

-- The forums as Postgres has them now (re-read on every change of the
-- forum or its channels); active = 0 once deleted.
CREATE TABLE IF NOT EXISTS forums (
    series_id        UUID,
    community_id     UUID,
    name             String,
    main_channel_id  UUID,
    admin_channel_id UUID,
    created_ms       UInt64,
    active           UInt8,
    version          UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY series_id;

-- Forum access: one row per membership (a forum and a profile), as
-- Postgres has it now; user_id is the nil UUID for an invited profile that
-- has no account yet; active = 0 once the membership is removed.
CREATE TABLE IF NOT EXISTS members (
    series_id   UUID,
    profile_id  UUID,
    user_id     UUID,
    role        String,
    status      String,
    expert      UInt8,
    assigned_ms UInt64,
    active      UInt8,
    version     UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (series_id, profile_id);

-- Visits a day per forum and visitor, as exact sets of visit ids: visits
-- are only ever inserted, so a replayed visit adds an id the set already
-- has and the count stays exact (a count kept by SummingMergeTree would
-- add it twice). The members report reads it.
CREATE TABLE IF NOT EXISTS visits_daily (
    series_id UUID,
    day       Date,
    actor_id  UUID,
    visits    AggregateFunction(uniqExact, UUID)
) ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (series_id, day, actor_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS visits_daily_mv TO visits_daily AS
SELECT series_id, day, actor_id, uniqExactState(object_id) AS visits
FROM facts
WHERE kind = 'visit' AND active = 1
GROUP BY series_id, day, actor_id;

-- The commit time of the newest change applied, per projection: the
-- reports' updatedOn.
CREATE TABLE IF NOT EXISTS watermark (
    projection   String,
    committed_ms UInt64
) ENGINE = ReplacingMergeTree(committed_ms)
ORDER BY projection;
