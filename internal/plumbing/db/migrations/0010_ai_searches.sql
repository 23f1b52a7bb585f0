-- The forums' AI searches (spec 001 §4 "AI search flow"): a search is one
-- conversation of one member in one channel; each question asked in it
-- (the first, then follow-ups) is a turn with the answer given and the
-- posts it cited. They are kept for the member's follow-ups, for sharing
-- the conversation to the forum (threads.chat) and for the forum's
-- insights (AI searches asked, and what they asked).

CREATE TABLE ai_searches (
    id         uuid PRIMARY KEY,
    channel_id uuid NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    series_id  uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE ai_searches REPLICA IDENTITY FULL;
CREATE INDEX ai_searches_series ON ai_searches (series_id, created_on DESC);
CREATE INDEX ai_searches_user ON ai_searches (user_id);

CREATE TABLE ai_search_turns (
    id         uuid PRIMARY KEY,
    search_id  uuid NOT NULL REFERENCES ai_searches (id) ON DELETE CASCADE,
    question   text NOT NULL CHECK (char_length(question) BETWEEN 1 AND 1000),
    answer     text NOT NULL,
    -- cited are the posts (threads or replies) the answer cites, in order;
    -- no foreign key: a record of what was answered outlives the post.
    cited      uuid[] NOT NULL DEFAULT '{}',
    -- answerer names what wrote the answer: 'extractive' or the model.
    answerer   text NOT NULL,
    created_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE ai_search_turns REPLICA IDENTITY FULL;
CREATE INDEX ai_search_turns_search ON ai_search_turns (search_id, created_on);

-- A shared AI chat post (type shared-ai-chat) holds its conversation:
-- [{"role": "user"|"other", "content": text, "createdOn": time}, ...].
ALTER TABLE threads ADD COLUMN chat jsonb;

-- Hashtags keep the case they were typed in, and count as one name
-- whatever the case: the search projection recounts a forum's uses of a
-- name through these indexes rather than reading the whole forum.
CREATE FUNCTION lower_tags(tags text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(lower(t)), '{}') FROM unnest(tags) AS t
$$;
CREATE INDEX threads_lower_hashtags ON threads USING gin (lower_tags(hashtags));
CREATE INDEX replies_lower_hashtags ON replies USING gin (lower_tags(hashtags));
