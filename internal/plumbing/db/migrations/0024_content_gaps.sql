-- A content gap is a question a forum's AI search could not answer (issue
-- 20): its answer cited no post. Forum admins read them in the Insights
-- panel to learn what members look for and the forum does not hold yet.
--
-- The same question asked again, however it is cased, spaced or punctuated
-- (normalized), counts up instead of adding a row. Who asked is not kept:
-- members ask the AI search what they might not ask in front of others,
-- and an admin needs the question, not the asker, to fill the gap.
-- A later answer does not remove a gap; an admin dismisses one by
-- deleting its row, and the same question asked after that is a new gap.
CREATE TABLE content_gaps (
    id             uuid PRIMARY KEY,
    series_id      uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    normalized     text NOT NULL,
    -- question is the latest wording asked.
    question       text NOT NULL CHECK (char_length(question) BETWEEN 1 AND 1000),
    asked_count    integer NOT NULL DEFAULT 1 CHECK (asked_count >= 1),
    first_asked_on timestamptz NOT NULL,
    last_asked_on  timestamptz NOT NULL,
    UNIQUE (series_id, normalized)
);
ALTER TABLE content_gaps REPLICA IDENTITY FULL;
CREATE INDEX content_gaps_recent ON content_gaps (series_id, last_asked_on DESC);
CREATE INDEX content_gaps_most_asked ON content_gaps (series_id, asked_count DESC);
