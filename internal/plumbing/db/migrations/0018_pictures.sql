-- Pictures: the image a person (avatar), a community or an organization
-- shows. An upload's read URL is signed for hours (AGORA_BLOB_URL_TTL) and
-- an upload no post shows is swept (AGORA_UPLOAD_UNATTACHED_TTL), so a
-- picture stored as the URL the upload answered broke within hours. A
-- picture is now stored as /api/pictures/{uploadId}, which signs a fresh
-- read URL on each request, and its upload is marked here so that neither
-- the sweep nor the unposted-uploads quota counts it. A replaced picture is
-- no longer shown, and the sweep removes it then.
ALTER TABLE uploads ADD COLUMN picture boolean NOT NULL DEFAULT false;
