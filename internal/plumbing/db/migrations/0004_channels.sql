-- Channels: the containers of threads (spec README). Each forum has its
-- main channel (the feed) and an admin channel (the Insights panel's feed);
-- later migrations add private-chat and Meet Up channels.
--
-- A trigger creates a forum's two channels in the same transaction as the
-- forum, so no code path (the API, the seed, a rebuild) can make a forum
-- without them.

-- uuid_v7 makes time-ordered ids in SQL, like the application's
-- uuid.NewV7: 48 bits of Unix milliseconds, version 7, random rest.
CREATE FUNCTION uuid_v7() RETURNS uuid
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    b  bytea  := uuid_send(gen_random_uuid());
    ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
BEGIN
    b := overlay(b PLACING substring(int8send(ms) FROM 3) FROM 1 FOR 6);
    b := set_byte(b, 6, (get_byte(b, 6) & 15) | 112);
    RETURN encode(b, 'hex')::uuid;
END
$$;

CREATE TABLE channels (
    id         uuid PRIMARY KEY,
    series_id  uuid REFERENCES series (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('main', 'admin')),
    created_on timestamptz NOT NULL DEFAULT now(),
    UNIQUE (series_id, kind)
);
ALTER TABLE channels REPLICA IDENTITY FULL;

CREATE FUNCTION series_channels() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO channels (id, series_id, kind, created_on)
    VALUES (uuid_v7(), NEW.id, 'main', NEW.created_on),
           (uuid_v7(), NEW.id, 'admin', NEW.created_on);
    RETURN NEW;
END
$$;

CREATE TRIGGER series_channels AFTER INSERT ON series
    FOR EACH ROW EXECUTE FUNCTION series_channels();

-- Forums made before this migration get theirs now.
INSERT INTO channels (id, series_id, kind, created_on)
SELECT uuid_v7(), s.id, k.kind, s.created_on
FROM series s CROSS JOIN (VALUES ('main'), ('admin')) AS k (kind);
