-- A turn keeps the sources its answer's markers name: [{"n", "id",
-- "threadId", "channelId", "kind", "excerpt"}, ...], the cited posts as the
-- asker saw them, so that a shared chat keeps its citation links and its
-- Sources list (the [n] of an answer names the n-th post retrieved, which
-- the cited ids alone do not tell).
ALTER TABLE ai_search_turns ADD COLUMN sources jsonb NOT NULL DEFAULT '[]';
