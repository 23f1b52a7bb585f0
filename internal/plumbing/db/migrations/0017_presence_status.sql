-- Presence status (spec 002 §4): online, away, do-not-disturb, offline.
--
-- A tab reports whether its member is idle (hidden, or no input for
-- AGORA_PRESENCE_AWAY_AFTER); each node writes, in its presence row of the
-- member, whether every tab of theirs on that node is idle. A member may
-- choose do-not-disturb, kept in presence_choices across sessions until they
-- choose "auto" again (the row deleted).
--
-- online_users counts, besides the nodes, the idle ones, keeps a copy of
-- the choice and the status they make, written by the triggers in the same
-- transaction as the presence row or the choice: online while any node's
-- tabs are active, away when every node's are idle, do-not-disturb over
-- both. As for online and offline (0003), the status is decided once,
-- under a lock of the member, so two nodes (or a node and a choice) writing
-- at once cannot each miss the other; the realtime projection turns a
-- status change of a row into user.status.
CREATE TABLE presence_choices (
    user_id   uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    status    text NOT NULL CHECK (status = 'do-not-disturb'),
    chosen_on timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE presence ADD COLUMN idle boolean NOT NULL DEFAULT false;

ALTER TABLE online_users
    ADD COLUMN idle_nodes integer NOT NULL DEFAULT 0 CHECK (idle_nodes >= 0),
    ADD COLUMN do_not_disturb boolean NOT NULL DEFAULT false,
    ADD COLUMN status text NOT NULL DEFAULT 'online' CHECK (status IN ('online', 'away', 'do-not-disturb'));

CREATE FUNCTION presence_status(nodes integer, idle_nodes integer, do_not_disturb boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN do_not_disturb THEN 'do-not-disturb' WHEN idle_nodes < nodes THEN 'online' ELSE 'away' END
$$;

-- presence_lock serializes the presence writes of one member (their rows on
-- every node and their choice) until the transaction ends. The row lock of
-- online_users alone is not enough: a member's first connection inserts
-- that row, which a concurrent choice cannot see, let alone lock. Each
-- statement after it reads what the transaction it waited for committed.
CREATE FUNCTION presence_lock(member uuid) RETURNS void LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(hashtextextended('presence:' || member::text, 0))
$$;

CREATE OR REPLACE FUNCTION presence_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    left_nodes integer;
    dnd boolean;
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM presence_lock(NEW.user_id);
        dnd := EXISTS (SELECT 1 FROM presence_choices WHERE user_id = NEW.user_id);
        INSERT INTO online_users (user_id, nodes, idle_nodes, do_not_disturb, status)
        VALUES (NEW.user_id, 1, NEW.idle::int, dnd, presence_status(1, NEW.idle::int, dnd))
        ON CONFLICT (user_id) DO UPDATE SET
            nodes = online_users.nodes + 1,
            idle_nodes = online_users.idle_nodes + EXCLUDED.idle_nodes,
            status = presence_status(online_users.nodes + 1, online_users.idle_nodes + EXCLUDED.idle_nodes, online_users.do_not_disturb);
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        IF NEW.idle = OLD.idle THEN
            RETURN NEW;
        END IF;
        PERFORM presence_lock(NEW.user_id);
        UPDATE online_users SET
            idle_nodes = idle_nodes + (NEW.idle::int - OLD.idle::int),
            status = presence_status(nodes, idle_nodes + (NEW.idle::int - OLD.idle::int), do_not_disturb)
        WHERE user_id = NEW.user_id;
        RETURN NEW;
    END IF;
    -- DELETE. The UPDATE locks the row (re-reading its newest version), so
    -- a concurrent connect of the same member waits for this transaction
    -- and, once the row is gone, inserts it anew: nobody outside ever sees
    -- nodes = 0. The last node's departure keeps the status, so that going
    -- offline is one user.disconnected and no status change before it.
    PERFORM presence_lock(OLD.user_id);
    UPDATE online_users SET
        nodes = nodes - 1,
        idle_nodes = idle_nodes - OLD.idle::int,
        status = CASE WHEN nodes = 1 THEN status
            ELSE presence_status(nodes - 1, idle_nodes - OLD.idle::int, do_not_disturb) END
    WHERE user_id = OLD.user_id
        RETURNING nodes INTO left_nodes;
    IF left_nodes = 0 THEN
        DELETE FROM online_users WHERE user_id = OLD.user_id;
    END IF;
    RETURN OLD;
END;
$$;

DROP TRIGGER presence_count ON presence;
CREATE TRIGGER presence_count AFTER INSERT OR DELETE OR UPDATE OF idle ON presence
    FOR EACH ROW EXECUTE FUNCTION presence_count();

CREATE FUNCTION presence_choice() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    member uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END;
    dnd boolean := TG_OP <> 'DELETE';
BEGIN
    PERFORM presence_lock(member);
    UPDATE online_users SET do_not_disturb = dnd, status = presence_status(nodes, idle_nodes, dnd)
    WHERE user_id = member AND do_not_disturb <> dnd;
    RETURN NULL;
END;
$$;

CREATE TRIGGER presence_choice AFTER INSERT OR DELETE ON presence_choices
    FOR EACH ROW EXECUTE FUNCTION presence_choice();
