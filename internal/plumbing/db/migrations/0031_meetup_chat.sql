-- The Meet Up's chat (spec 002 §2 "a Meet Up has an in-meeting chat", §4
-- "Chat in a Meet Up"): a channel of kind 'meetup', one per Meet Up, made
-- with its first message. Its messages and reactions are rows of
-- private_messages and private_message_reactions, with the same limits,
-- edits, deletions, uploads and live events as a private conversation's.
--
-- A Meet Up's channel has no channel_members rows: who reads and writes
-- it is whoever may join the Meet Up (internal/rules/access's
-- MeetingRole), so an invitee who declines, or a member who gives up
-- their seat, loses it at once. Every consumer of channel_members (the
-- private channel list, the peers' latest message, the private message
-- notifications) therefore never sees a Meet Up's chat.
ALTER TABLE channels DROP CONSTRAINT channels_kind_check;
ALTER TABLE channels ADD CONSTRAINT channels_kind_check CHECK (kind IN ('main', 'admin', 'private', 'meetup'));
ALTER TABLE channels ADD COLUMN meeting_id uuid UNIQUE REFERENCES meetings (id) ON DELETE CASCADE;
ALTER TABLE channels DROP CONSTRAINT channels_private_pair;
ALTER TABLE channels ADD CONSTRAINT channels_private_pair CHECK (
    (kind = 'private') = (pair_key IS NOT NULL)
    AND (kind = 'meetup') = (meeting_id IS NOT NULL)
    AND (kind IN ('private', 'meetup')) = (series_id IS NULL));
