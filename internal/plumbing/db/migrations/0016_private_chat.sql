-- Private chat (spec 002 §3 "Private channel", "Chat message"; §4): a
-- channel between two people who share a community, their messages and
-- reactions, and each user's personalization (what their browser keeps
-- across devices: dismissed reminders, each conversation's last activity).
--
-- Private messages are not rows of threads: every forum consumer (the post
-- search index, the insights facts, the feed and its live events) reads
-- threads, replies and reactions, so keeping messages in their own tables
-- means none of them can read a private message by mistake. Their changes
-- still go through the change stream (they are not secrets): the realtime
-- projection delivers them to the two members alone.
--
-- Every table has a primary key and REPLICA IDENTITY FULL: the relay needs
-- both to describe updates and deletes, and the realtime projection reads
-- the before-image of a deletion.

-- A private channel has no forum; pair_key ("<smaller id>:<larger id>")
-- makes one channel per pair of users whoever writes first, even when both
-- write at once.
ALTER TABLE channels DROP CONSTRAINT channels_kind_check;
ALTER TABLE channels ADD CONSTRAINT channels_kind_check CHECK (kind IN ('main', 'admin', 'private'));
ALTER TABLE channels ADD COLUMN pair_key text UNIQUE;
ALTER TABLE channels ADD CONSTRAINT channels_private_pair CHECK (
    (kind = 'private') = (pair_key IS NOT NULL) AND (kind = 'private') = (series_id IS NULL));

CREATE TABLE channel_members (
    channel_id   uuid NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- when the member last opened the conversation; null until then
    last_seen_on timestamptz,
    PRIMARY KEY (channel_id, user_id)
);
ALTER TABLE channel_members REPLICA IDENTITY FULL;
-- A user's channels (GET /channels/private).
CREATE INDEX channel_members_user ON channel_members (user_id);

CREATE TABLE private_messages (
    id         uuid PRIMARY KEY,
    channel_id uuid NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    creator_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    raw        text NOT NULL DEFAULT '' CHECK (char_length(raw) <= 800),
    -- image, file: the upload's id as command/feed stores a post's; link:
    -- the checked link preview
    image      jsonb,
    link       jsonb,
    file       jsonb,
    created_on timestamptz NOT NULL DEFAULT now(),
    updated_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE private_messages REPLICA IDENTITY FULL;
-- A conversation newest first with a createdOn cursor; the peers list's
-- latest message between two people.
CREATE INDEX private_messages_channel ON private_messages (channel_id, created_on DESC, id DESC);

CREATE TABLE private_message_reactions (
    message_id uuid NOT NULL REFERENCES private_messages (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reaction   text NOT NULL CHECK (reaction IN ('liked', 'loved', 'smiled', 'disliked', 'neutral')),
    created_on timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (message_id, user_id)
);
ALTER TABLE private_message_reactions REPLICA IDENTITY FULL;

-- An upload shown by a private message belongs to it as one shown by a
-- post belongs to the post: it goes with the message, and is served while
-- the message shows it. An upload is on one post or one message, never both.
ALTER TABLE uploads ADD COLUMN private_message_id uuid REFERENCES private_messages (id) ON DELETE SET NULL;
ALTER TABLE uploads ADD CONSTRAINT uploads_one_owner CHECK (thread_id IS NULL OR private_message_id IS NULL);
CREATE INDEX uploads_private_message ON uploads (private_message_id) WHERE private_message_id IS NOT NULL;
DROP INDEX uploads_unattached;
CREATE INDEX uploads_unattached ON uploads (created_on) WHERE thread_id IS NULL AND private_message_id IS NULL;

CREATE TABLE user_personalization (
    user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    data       jsonb NOT NULL DEFAULT '{}',
    updated_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE user_personalization REPLICA IDENTITY FULL;
