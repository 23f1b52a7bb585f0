-- Meet Ups (spec 002 §3 "Meeting", §4 "Meet Up registration", "Meet Up
-- lifecycle", "Breakout rooms", "AI notes recording"; spec 001 §3
-- "Meeting inside a post"): a scheduled live video room that belongs to a
-- post of a forum, its invitees and registrations, who was in the room and
-- when, the breakout room each participant is in, and the AI notes.
--
-- A Meet Up is its own row, not the post's meeting jsonb: registrations
-- race for seats (a seat is a row lock and a count, not a read-modify-write
-- of a document), the change stream tells each consumer which part changed,
-- and the feed builds the post's meeting from these rows when it reads.
--
-- Every table has a primary key and REPLICA IDENTITY FULL: the relay needs
-- both to describe updates and deletes.

CREATE TABLE meetings (
    -- the roomId: LiveKit's room name is its text form
    id              uuid PRIMARY KEY,
    -- the Meet Up post; deleting the post deletes the Meet Up
    thread_id       uuid NOT NULL UNIQUE REFERENCES threads (id) ON DELETE CASCADE,
    series_id       uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    creator_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 75),
    agenda          text NOT NULL DEFAULT '' CHECK (char_length(agenda) <= 250),
    start_time      timestamptz NOT NULL,
    duration        integer NOT NULL CHECK (duration IN (15, 30, 45, 60, 90, 120)),
    -- open: members of the forum register for a seat; private: invitees only
    open            boolean NOT NULL,
    seat_count      integer CHECK (seat_count BETWEEN 1 AND 50),
    -- breakout room names in the order the creator gave them; a room's
    -- index in this list is its breakoutRoleIndex
    breakouts       text[] NOT NULL DEFAULT '{}' CHECK (cardinality(breakouts) <= 10),
    breakouts_open  boolean NOT NULL DEFAULT false,
    -- set when the creator or a moderator ends it for all, or when its room
    -- finishes after the scheduled end
    ended_on        timestamptz,
    -- AI notes: null until asked for; started (recording), compiling (the
    -- recording stopped, minutes being written), completed, canceled, failed
    minutes_state   text CHECK (minutes_state IN ('started', 'compiling', 'completed', 'canceled', 'failed')),
    minutes_content text CHECK (char_length(minutes_content) <= 20000),
    minutes_on      timestamptz,
    created_on      timestamptz NOT NULL DEFAULT now(),
    updated_on      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT meetings_open_seats CHECK (open = (seat_count IS NOT NULL))
);
ALTER TABLE meetings REPLICA IDENTITY FULL;
-- A forum's upcoming Meet Ups (the "Up next" card, GET /meetings).
CREATE INDEX meetings_series_start ON meetings (series_id, start_time);
CREATE INDEX meetings_upcoming ON meetings (start_time) WHERE ended_on IS NULL;

CREATE TABLE meeting_invitees (
    meeting_id   uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- moderator: may add members, run breakouts and AI notes, end for all
    role         text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'moderator')),
    -- null: invited, not answered; yes, no: an invitee's answer;
    -- registered: holds a seat of an open Meet Up; waitlisted: asked for a
    -- seat when none was left, promoted in responded_on order when one frees
    response     text CHECK (response IN ('yes', 'no', 'registered', 'waitlisted')),
    responded_on timestamptz,
    created_on   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (meeting_id, user_id)
);
ALTER TABLE meeting_invitees REPLICA IDENTITY FULL;
-- A member's Meet Ups (GET /meetings).
CREATE INDEX meeting_invitees_user ON meeting_invitees (user_id);
-- The waitlist in order.
CREATE INDEX meeting_invitees_waitlist ON meeting_invitees (meeting_id, responded_on) WHERE response = 'waitlisted';

-- Who was in the room and when, from LiveKit's webhooks: one row per
-- session (a member who leaves and comes back has two). The insights Meet
-- Ups report reads attendance and durations from these.
CREATE TABLE meeting_attendance (
    -- LiveKit's participant session id (participant.sid), so a webhook
    -- delivered twice writes one row
    id         text PRIMARY KEY,
    meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- the LiveKit room: the Meet Up's own or one of its breakout rooms
    room       text NOT NULL,
    joined_on  timestamptz NOT NULL,
    left_on    timestamptz
);
ALTER TABLE meeting_attendance REPLICA IDENTITY FULL;
CREATE INDEX meeting_attendance_meeting ON meeting_attendance (meeting_id, user_id);
-- Who is in a room now (one Meet Up at a time, the room's participants).
CREATE INDEX meeting_attendance_present ON meeting_attendance (user_id) WHERE left_on IS NULL;

-- The breakout room each participant is in while breakouts are open;
-- closing the breakouts deletes the Meet Up's rows.
CREATE TABLE meeting_breakout_members (
    meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    room       text NOT NULL CHECK (char_length(room) BETWEEN 1 AND 50),
    joined_on  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (meeting_id, user_id)
);
ALTER TABLE meeting_breakout_members REPLICA IDENTITY FULL;

-- What the AI notes recorder heard: one row per utterance, attributed to
-- the participant whose audio track it came from.
CREATE TABLE meeting_transcripts (
    meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
    seq        integer NOT NULL,
    speaker_id uuid REFERENCES users (id) ON DELETE SET NULL,
    text       text NOT NULL CHECK (char_length(text) <= 4000),
    spoken_on  timestamptz NOT NULL,
    PRIMARY KEY (meeting_id, seq)
);
ALTER TABLE meeting_transcripts REPLICA IDENTITY FULL;

-- Meet Up notifications: an invitation to a private Meet Up, an open Meet
-- Up announced to its forum's members (also e-mailed), a seat freed for a
-- waitlisted member.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('comment', 'reply', 'mention', 'message', 'meetup-invite', 'meetup-open', 'meetup-seat'));
