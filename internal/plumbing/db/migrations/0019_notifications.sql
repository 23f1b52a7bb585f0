-- Notifications (spec 000 §2.2, §3 "Notification", §7 "Notifications and
-- personalization"): what happened to a member in the forums and the
-- private chat, one row per recipient and cause. The notifications
-- projection (projections/notifications) writes them from the change
-- stream of threads, replies and private messages; GET /api/notifications
-- lists them and the delivery (e-mail, push, digests) reads them.
--
-- The id is a uuid v5 of (user_id, kind, source_id), so a replay of the
-- stream or a rebuild writes the same rows again, never new ones. A row
-- names no anonymous asker: author_id is null then. The row copies what
-- the list shows (preview, place, time) so that reading a member's bell is
-- one index range, not a join over every forum.
CREATE TABLE notifications (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- comment: a comment on the recipient's post; reply: a reply to the
    -- recipient's comment; mention: the recipient is mentioned in a post,
    -- comment or reply; message: a private message to the recipient.
    kind         text NOT NULL CHECK (kind IN ('comment', 'reply', 'mention', 'message')),
    -- the thread, reply or private message that caused it
    source_id    uuid NOT NULL,
    -- the post it belongs to; null for a message
    post_id      uuid,
    series_id    uuid,
    community_id uuid,
    channel_id   uuid,
    -- null when the author is anonymous
    author_id    uuid,
    preview      text NOT NULL CHECK (char_length(preview) <= 200),
    created_on   timestamptz NOT NULL,
    UNIQUE (user_id, kind, source_id)
);
ALTER TABLE notifications REPLICA IDENTITY FULL;
-- A member's list, newest first.
CREATE INDEX notifications_user ON notifications (user_id, created_on DESC);
-- A source deleted removes its notifications.
CREATE INDEX notifications_source ON notifications (source_id);
