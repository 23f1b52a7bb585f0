-- The notice Manage Access promises (spec 001 §3, assignment preview):
-- each person given access to a forum by one of its admins is told, in the
-- app and by mail. assigned_by is that admin (null for memberships no one
-- gave: a forum's creator, those made before this migration), so that the
-- notifications projection tells only the people someone let in, in that
-- someone's name.
ALTER TABLE series_memberships ADD COLUMN assigned_by uuid REFERENCES users (id) ON DELETE SET NULL;

-- forum-access: the recipient was given access to the forum (source_id);
-- it has no post.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'mention', 'message', 'meetup-invite', 'meetup-open', 'meetup-seat', 'community-join', 'forum-access'));
