-- The forum feed (spec 001 §3): threads (posts and questions) in a channel,
-- their replies (comments, and replies to a comment one level down), the
-- reactions on both, and each member's forum visits.
--
-- Every table has a primary key and REPLICA IDENTITY FULL: the change relay
-- needs both to describe updates and deletes.

CREATE TABLE threads (
    id         uuid PRIMARY KEY,
    channel_id uuid NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    series_id  uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    creator_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    creator_as text NOT NULL DEFAULT 'author' CHECK (creator_as IN ('author', 'anonymous')),
    type       text NOT NULL DEFAULT 'post' CHECK (type IN ('post', 'question', 'shared-ai-chat')),
    raw        text NOT NULL DEFAULT '' CHECK (char_length(raw) <= 4000),
    image      jsonb,
    file       jsonb,
    link       jsonb,
    mentions   uuid[] NOT NULL DEFAULT '{}',
    hashtags   text[] NOT NULL DEFAULT '{}',
    -- meeting stays null until Meet Ups are scheduled from a post.
    meeting    jsonb,
    created_on timestamptz NOT NULL DEFAULT now(),
    updated_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE threads REPLICA IDENTITY FULL;
-- The feed reads a channel newest first with a (created_on, id) cursor.
CREATE INDEX threads_feed ON threads (channel_id, created_on DESC, id DESC);
CREATE INDEX threads_series_hashtags ON threads USING gin (hashtags);

CREATE TABLE replies (
    id         uuid PRIMARY KEY,
    thread_id  uuid NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    -- parent_id is the comment a reply answers; null for a comment.
    parent_id  uuid REFERENCES replies (id) ON DELETE CASCADE,
    creator_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    raw        text NOT NULL CHECK (char_length(raw) BETWEEN 1 AND 4000),
    mentions   uuid[] NOT NULL DEFAULT '{}',
    hashtags   text[] NOT NULL DEFAULT '{}',
    created_on timestamptz NOT NULL DEFAULT now(),
    updated_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE replies REPLICA IDENTITY FULL;
CREATE INDEX replies_thread ON replies (thread_id, created_on, id);

CREATE TABLE reactions (
    id         uuid PRIMARY KEY,
    thread_id  uuid NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    reply_id   uuid REFERENCES replies (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('liked', 'loved', 'smiled', 'disliked', 'neutral')),
    created_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE reactions REPLICA IDENTITY FULL;
-- One reaction per person on a thread or a reply; a thread's own reactions
-- have no reply, so the nil UUID stands in for it in the key.
CREATE UNIQUE INDEX reactions_one ON reactions (thread_id, COALESCE(reply_id, '00000000-0000-0000-0000-000000000000'::uuid), user_id);

CREATE TABLE series_visits (
    series_id             uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    user_id               uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    visited_on            timestamptz NOT NULL,
    previously_visited_on timestamptz,
    PRIMARY KEY (series_id, user_id)
);
ALTER TABLE series_visits REPLICA IDENTITY FULL;
