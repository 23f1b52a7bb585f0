-- Uploads (spec 001 §5 "Uploads", §7 POST /sas): a member asks for a signed
-- URL (a pending row), puts the bytes there, and the server, having sniffed
-- them, marks the row complete. The bytes live in the blob store
-- (internal/blob), never in Postgres; a post refers to an upload by its id.
--
-- A primary key and REPLICA IDENTITY FULL, as every table: the change relay
-- needs both to describe updates and deletes.
CREATE TABLE uploads (
    id                  uuid PRIMARY KEY,
    owner_id            uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind                text NOT NULL CHECK (kind IN ('image', 'file')),
    name                text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    -- what the client said the type was, kept for support; never served
    declared_media_type text NOT NULL,
    declared_size       bigint NOT NULL CHECK (declared_size > 0),
    -- filled when complete: the type read from the bytes, the type the
    -- blob is served with, the size received and the read URL
    sniffed_media_type  text,
    media_type          text,
    size                bigint CHECK (size > 0),
    url                 text,
    state               text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'complete')),
    created_on          timestamptz NOT NULL DEFAULT now(),
    completed_on        timestamptz,
    CHECK (state = 'pending' OR (sniffed_media_type IS NOT NULL AND media_type IS NOT NULL
        AND size IS NOT NULL AND url IS NOT NULL AND completed_on IS NOT NULL))
);
ALTER TABLE uploads REPLICA IDENTITY FULL;
-- A member's uploads, newest first (what they may attach; clean-up of the
-- pending and never attached).
CREATE INDEX uploads_owner ON uploads (owner_id, created_on DESC);
