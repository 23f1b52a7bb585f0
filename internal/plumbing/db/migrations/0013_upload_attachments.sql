-- Uploads belong to the post that shows them. A post keeps the upload's id
-- (threads.image {id, name}, threads.file {id, name, mediaType}), never a
-- signed URL: the feed signs a short-lived read URL each time it is read,
-- so that deleting the post, or losing access to its forum, ends access to
-- its files. Hence:
--   - uploads.url (a ten-year read URL) goes;
--   - uploads.thread_id is the post an upload is attached to, set once
--     (attached_on); deleting the post deletes its uploads with their
--     blobs, and a post deleted along with its forum leaves them detached
--     (thread_id null, attached_on set) for the sweep;
--   - uploads never attached are swept after AGORA_UPLOAD_UNATTACHED_TTL.
ALTER TABLE uploads DROP COLUMN url;
ALTER TABLE uploads ADD COLUMN thread_id uuid REFERENCES threads (id) ON DELETE SET NULL;
ALTER TABLE uploads ADD COLUMN attached_on timestamptz;
-- Dropping url dropped the completeness check that named it.
ALTER TABLE uploads ADD CONSTRAINT uploads_complete CHECK (state = 'pending' OR (sniffed_media_type IS NOT NULL
    AND media_type IS NOT NULL AND size IS NOT NULL AND completed_on IS NOT NULL));
CREATE INDEX uploads_thread ON uploads (thread_id) WHERE thread_id IS NOT NULL;
-- What the sweep and the quota read: uploads not (or no longer) attached.
CREATE INDEX uploads_unattached ON uploads (created_on) WHERE thread_id IS NULL;

-- Existing posts: an image or file that is a blob URL of an upload of the
-- post's creator becomes that upload's id, and the upload is attached to
-- the post; any other address (a page elsewhere, which the file viewer
-- would frame) becomes the post's link when it has none, and is dropped.
CREATE TEMPORARY TABLE attached ON COMMIT DROP AS
SELECT t.id AS thread_id, t.created_on, a.slot, a.url,
    (SELECT u.id FROM uploads u
     WHERE u.id::text = lower(substring(a.url FROM '/api/blobs/([0-9A-Fa-f-]{36})/'))
       AND u.owner_id = t.creator_id AND u.state = 'complete' AND u.kind = a.slot) AS upload_id
FROM threads t,
    LATERAL (VALUES ('image', t.image ->> 'url'), ('file', t.file ->> 'url')) AS a (slot, url)
WHERE a.url IS NOT NULL;

UPDATE threads t SET image = (SELECT jsonb_build_object('id', u.id, 'name', u.name) FROM uploads u WHERE u.id = a.upload_id)
FROM attached a WHERE a.thread_id = t.id AND a.slot = 'image';
UPDATE threads t SET file = (SELECT jsonb_build_object('id', u.id, 'name', u.name, 'mediaType', u.media_type) FROM uploads u WHERE u.id = a.upload_id)
FROM attached a WHERE a.thread_id = t.id AND a.slot = 'file';
UPDATE threads t SET link = jsonb_build_object('url', a.url, 'viewerType', 'external')
FROM (SELECT DISTINCT ON (thread_id) thread_id, url FROM attached WHERE upload_id IS NULL AND url ~* '^https?://'
      ORDER BY thread_id, slot DESC) a
WHERE a.thread_id = t.id AND t.link IS NULL;
-- An upload shown by two posts belongs to the first.
UPDATE uploads u SET thread_id = a.thread_id, attached_on = a.created_on
FROM (SELECT DISTINCT ON (upload_id) upload_id, thread_id, created_on FROM attached WHERE upload_id IS NOT NULL
      ORDER BY upload_id, created_on) a
WHERE u.id = a.upload_id;
