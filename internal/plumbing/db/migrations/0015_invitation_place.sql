-- An invitation remembers the community or forum it was sent from, so that
-- the invited person lands there after signing up (spec 000: the
-- from-registration target). Deleting the place keeps the invitation: it
-- still joins the organization, and leads home.
ALTER TABLE tokens ADD COLUMN community_id uuid REFERENCES communities (id) ON DELETE SET NULL;
ALTER TABLE tokens ADD COLUMN series_id uuid REFERENCES series (id) ON DELETE SET NULL;
CREATE INDEX tokens_community_id ON tokens (community_id);
CREATE INDEX tokens_series_id ON tokens (series_id);
