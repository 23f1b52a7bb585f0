-- Presence: who has the app open (spec 002 §4), across API nodes.
--
-- Each API node keeps its members' WebSocket connections in memory and
-- writes one presence row per member it holds at least one connection of
-- (several tabs on one node are one row). A node beats its presence_nodes
-- row every ~20 s; a node not heard from for a minute was killed, and any
-- node deletes its row, which takes its presence rows with it.
--
-- online_users holds one row per member connected to any node, kept by
-- the trigger below in the same transaction as the presence rows, so that
-- a member going online (the row inserted) or offline (deleted) is decided
-- once, under a row lock, whatever the number of tabs and nodes; the
-- realtime projection turns those two changes into user.connected and
-- user.disconnected. Deciding it later, from what the tables hold when the
-- change is consumed, would miss a member who connects to two nodes at
-- once (each node would see the other's row and stay silent).
CREATE TABLE presence_nodes (
    node_id text PRIMARY KEY,
    beat_on timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE presence (
    node_id      text NOT NULL REFERENCES presence_nodes (node_id) ON DELETE CASCADE,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    connected_on timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (node_id, user_id)
);
CREATE INDEX presence_user_id ON presence (user_id);

CREATE TABLE online_users (
    user_id   uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    nodes     integer NOT NULL CHECK (nodes >= 0),
    online_on timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION presence_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    left_nodes integer;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO online_users (user_id, nodes) VALUES (NEW.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET nodes = online_users.nodes + 1;
        RETURN NEW;
    END IF;
    -- DELETE. The UPDATE locks the row (re-reading its newest version), so
    -- a concurrent connect of the same member waits for this transaction
    -- and, once the row is gone, inserts it anew: nobody outside ever sees
    -- nodes = 0.
    UPDATE online_users SET nodes = nodes - 1 WHERE user_id = OLD.user_id
        RETURNING nodes INTO left_nodes;
    IF left_nodes = 0 THEN
        DELETE FROM online_users WHERE user_id = OLD.user_id;
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER presence_count AFTER INSERT OR DELETE ON presence
    FOR EACH ROW EXECUTE FUNCTION presence_count();

ALTER TABLE presence_nodes REPLICA IDENTITY FULL;
ALTER TABLE presence REPLICA IDENTITY FULL;
ALTER TABLE online_users REPLICA IDENTITY FULL;
