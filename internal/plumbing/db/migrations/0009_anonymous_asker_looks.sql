-- Forum admins may see who asked an anonymous question, for moderation
-- (GET /api/threads/{threadId}/asker); every such look is recorded here, in
-- the same transaction as the read, so no look goes unrecorded.
--
-- thread_id has no foreign key on purpose: a record of who looked outlives
-- the question (an admin who unmasks an asker and then deletes the question
-- must still be accountable for the look). The viewer's row goes with their
-- account, like everything else they wrote.

CREATE TABLE anonymous_asker_looks (
    id        uuid PRIMARY KEY,
    thread_id uuid NOT NULL,
    viewer_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    looked_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE anonymous_asker_looks REPLICA IDENTITY FULL;
-- The looks at one question, newest first, for whoever reviews them.
CREATE INDEX anonymous_asker_looks_thread ON anonymous_asker_looks (thread_id, looked_on DESC);
CREATE INDEX anonymous_asker_looks_viewer ON anonymous_asker_looks (viewer_id);
