-- Open forums (spec 001 §4: "an open forum cannot have members removed"):
-- every member of a community is a member of each of its open forums. The
-- rule is kept here, once, below every way a person joins a community (the
-- share dialog, the new member dialog, the file import, single sign-on, an
-- invitation accepted) and every way a forum becomes open (made open, or
-- changed to open), in the transaction that does it: the forum's readers,
-- lists, search, live events and notifications all read the memberships,
-- so none of them needs to know the rule. The open forum's membership
-- follows the community's status (pending until the person registers,
-- when account.join activates both) and is never complimentary: a paid
-- forum or community still asks for its payment (internal/access).
CREATE FUNCTION open_forum_members_of_community() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO series_memberships (series_id, profile_id, role, status, assigned_on)
        SELECT s.id, NEW.profile_id, 'member', NEW.status, NEW.assigned_on
        FROM series s WHERE s.community_id = NEW.community_id AND s.exclusivity = 'open'
    ON CONFLICT (series_id, profile_id) DO UPDATE SET status = 'active'
        WHERE series_memberships.status = 'pending' AND EXCLUDED.status = 'active';
    RETURN NULL;
END $$;

CREATE TRIGGER open_forum_members_of_community AFTER INSERT OR UPDATE OF status ON community_memberships
    FOR EACH ROW EXECUTE FUNCTION open_forum_members_of_community();

CREATE FUNCTION open_forum_members_of_forum() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO series_memberships (series_id, profile_id, role, status, assigned_on)
        SELECT NEW.id, cm.profile_id, 'member', cm.status, now()
        FROM community_memberships cm WHERE cm.community_id = NEW.community_id
    ON CONFLICT (series_id, profile_id) DO UPDATE SET status = 'active'
        WHERE series_memberships.status = 'pending' AND EXCLUDED.status = 'active';
    RETURN NULL;
END $$;

CREATE TRIGGER open_forum_members_of_forum AFTER INSERT OR UPDATE OF exclusivity ON series
    FOR EACH ROW WHEN (NEW.exclusivity = 'open') EXECUTE FUNCTION open_forum_members_of_forum();

-- The members who joined before the rule was kept.
INSERT INTO series_memberships (series_id, profile_id, role, status, assigned_on)
    SELECT s.id, cm.profile_id, 'member', cm.status, cm.assigned_on
    FROM series s INNER JOIN community_memberships cm ON cm.community_id = s.community_id
    WHERE s.exclusivity = 'open'
ON CONFLICT (series_id, profile_id) DO NOTHING;

-- community-join: the member was added to a community (by its admins, a
-- file import, single sign-on, or an invitation they accepted), told in
-- the app and by e-mail; its source is the community.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'mention', 'message', 'meetup-invite', 'meetup-open', 'meetup-seat', 'community-join'));
