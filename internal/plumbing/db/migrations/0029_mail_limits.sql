-- The limits on the mail members' writes make the server send (issue 31,
-- G3), kept in Postgres so that they hold across API nodes and projectors.

-- Each invitation mailed: whose call sent it, to which profile and
-- address (its key, auth.EmailKey), into which community or forum (none:
-- the organization). The same invitation (profile, address, place) mailed
-- within AGORA_INVITATION_RESEND_AFTER is not mailed again, and one
-- member's calls mail at most AGORA_INVITATIONS_PER_ACTOR_PER_DAY a day.
-- The delivery scheduler prunes the rows older than both windows.
CREATE TABLE invitation_mails (
    id         uuid PRIMARY KEY,
    actor_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    recipient  text NOT NULL,
    community_id uuid REFERENCES communities (id) ON DELETE CASCADE,
    series_id  uuid REFERENCES series (id) ON DELETE CASCADE,
    sent_on    timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE invitation_mails REPLICA IDENTITY FULL;
CREATE INDEX invitation_mails_profile ON invitation_mails (profile_id, sent_on);
CREATE INDEX invitation_mails_actor ON invitation_mails (actor_id, sent_on);

-- A mention or Meet Up mail that came within AGORA_NOTIFICATION_BURST of
-- the last one to its member is held until held_until, then mailed with
-- the others held, as one.
ALTER TABLE notification_deliveries ADD COLUMN held_until timestamptz;
CREATE INDEX notification_deliveries_held ON notification_deliveries (held_until) WHERE held_until IS NOT NULL AND sent_on IS NULL;
