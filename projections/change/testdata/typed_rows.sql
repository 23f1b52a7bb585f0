-- The table the fixtures were captured from, and the statements that made
-- them, in order: the relay test replays them and compares its output.
CREATE TABLE typed_rows (
    id         uuid PRIMARY KEY,
    created_on timestamptz NOT NULL,
    data       jsonb,
    amount     numeric(12, 2),
    tags       text[] NOT NULL DEFAULT '{}',
    n          integer,
    flag       boolean NOT NULL,
    note       text
);
ALTER TABLE typed_rows REPLICA IDENTITY FULL;
