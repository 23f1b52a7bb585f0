-- Activity records (spec 001 §7: POST /activities, with contextKey,
-- objectType, verbType, data, recipients, context and actorId): what a
-- member did with something they read in a forum, such as opening a post's
-- file or link, or viewing a post on its own page. A post its reader has
-- viewed (verb_type 'viewed') is no longer new to them in GET
-- /sharedposts/new. The realtime events of activities are not sent (the
-- spec's client ignores them).
--
-- series_id is the forum of context_key, and thread_id its post when the
-- key names one; both go with what they name.
CREATE TABLE activities (
    id          uuid PRIMARY KEY,
    actor_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    context_key text NOT NULL CHECK (char_length(context_key) <= 100),
    object_type text NOT NULL,
    verb_type   text NOT NULL,
    series_id   uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    thread_id   uuid REFERENCES threads (id) ON DELETE CASCADE,
    data        jsonb NOT NULL DEFAULT '{}',
    recipients  uuid[] NOT NULL DEFAULT '{}',
    created_on  timestamptz NOT NULL
);
ALTER TABLE activities REPLICA IDENTITY FULL;
-- GET /sharedposts/new asks which posts the reader has viewed.
CREATE INDEX activities_viewed ON activities (actor_id, thread_id) WHERE verb_type = 'viewed';
