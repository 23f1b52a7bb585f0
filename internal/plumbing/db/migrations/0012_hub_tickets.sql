-- Hub tickets: the browser opens the live-event WebSocket (GET /api/hub)
-- with a ticket in its URL rather than its session token, since a URL is
-- written to access logs. A ticket is a one-time token of its own kind,
-- short-lived, and belongs to the session that asked for it: signing that
-- session out (revoked_on) refuses the ticket, and deleting it takes it.
ALTER TABLE tokens DROP CONSTRAINT tokens_kind_check;
ALTER TABLE tokens ADD CONSTRAINT tokens_kind_check
    CHECK (kind IN ('passwordReset', 'invitation', 'confirmation', 'access', 'hubTicket'));
ALTER TABLE tokens ADD COLUMN session_id uuid REFERENCES sessions (id) ON DELETE CASCADE;
CREATE INDEX tokens_session_id ON tokens (session_id);
