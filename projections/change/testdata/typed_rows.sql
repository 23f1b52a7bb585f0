-- The table the fixtures were recorded from: Debezium's messages of the
-- writes of app/envelope_test.go (AGORA_RECORD_FIXTURES=1 records them
-- again); relay/relay_test.go makes the same writes and compares its
-- output.
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
