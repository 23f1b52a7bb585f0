-- Identity core: accounts, the people records that organizations hold
-- (profiles), sessions and one-time tokens, organizations, communities and
-- forums (series) with their memberships.
--
-- A user is a login account and the person's own data. A profile is a person
-- inside one organization; it exists before its person registers (an
-- invitation creates it, with what the inviter knew) and is joined to the
-- user on registration, after which the person's fields are read from the
-- user. Memberships hang on profiles so that an invited person can be given
-- access before they have an account.

CREATE TABLE users (
    id            uuid PRIMARY KEY,
    email         text NOT NULL,
    email_key     text NOT NULL UNIQUE,          -- lower(trim(email)): sign-in is case-insensitive
    password_hash text NOT NULL,
    role          text NOT NULL DEFAULT 'user'
                  CHECK (role IN ('super', 'admin', 'moderator', 'user')),
    first_name    text NOT NULL,
    last_name     text NOT NULL,
    avatar        text,
    job_title       text NOT NULL DEFAULT '',
    company         text NOT NULL DEFAULT '',
    bio             text NOT NULL DEFAULT '',
    interest_tags   text[] NOT NULL DEFAULT '{}',
    school          text NOT NULL DEFAULT '',
    degree          text NOT NULL DEFAULT '',
    field_of_study  text NOT NULL DEFAULT '',
    graduation_year integer CHECK (graduation_year BETWEEN 1900 AND 2100),
    created_on    timestamptz NOT NULL DEFAULT now(),
    updated_on    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE organizations (
    id              uuid PRIMARY KEY,
    name            text NOT NULL,
    image           text,
    identity_client text,                        -- set when single sign-on is enabled
    created_on      timestamptz NOT NULL DEFAULT now(),
    updated_on      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE profiles (
    id              uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         uuid REFERENCES users (id) ON DELETE SET NULL,
    role            text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member')),
    email           text NOT NULL,
    email_key       text NOT NULL,
    first_name      text NOT NULL,
    last_name       text NOT NULL,
    job_title       text NOT NULL DEFAULT '',
    company         text NOT NULL DEFAULT '',
    avatar          text,
    bio             text NOT NULL DEFAULT '',
    interest_tags   text[] NOT NULL DEFAULT '{}',
    school          text NOT NULL DEFAULT '',
    degree          text NOT NULL DEFAULT '',
    field_of_study  text NOT NULL DEFAULT '',
    graduation_year integer CHECK (graduation_year BETWEEN 1900 AND 2100),
    is_expert       boolean NOT NULL DEFAULT false,
    created_on      timestamptz NOT NULL DEFAULT now(),
    updated_on      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (organization_id, email_key)
);
CREATE INDEX profiles_user_id ON profiles (user_id);

CREATE TABLE sessions (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash   bytea NOT NULL UNIQUE,          -- sha256 of the bearer token; the token itself is never stored
    created_on   timestamptz NOT NULL DEFAULT now(),
    expires_on   timestamptz NOT NULL,
    revoked_on   timestamptz,
    ip           text NOT NULL DEFAULT '',
    user_agent   text NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_id ON sessions (user_id);

-- One-time tokens: password resets, invitations, confirmations and access
-- tokens. Single use (used_on) and expiring; stored only as a hash.
CREATE TABLE tokens (
    id         uuid PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('passwordReset', 'invitation', 'confirmation', 'access')),
    token_hash bytea NOT NULL UNIQUE,
    user_id    uuid REFERENCES users (id) ON DELETE CASCADE,
    profile_id uuid REFERENCES profiles (id) ON DELETE CASCADE,
    email      text NOT NULL DEFAULT '',
    created_on timestamptz NOT NULL DEFAULT now(),
    expires_on timestamptz NOT NULL,
    used_on    timestamptz
);
CREATE INDEX tokens_user_id ON tokens (user_id);
CREATE INDEX tokens_profile_id ON tokens (profile_id);

CREATE TABLE communities (
    id              uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 75),
    description     text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 750),
    membership_type text NOT NULL DEFAULT 'invitationOnly' CHECK (membership_type = 'invitationOnly'),
    image           text,
    video           text,
    video_cover     text,
    sso_access      boolean NOT NULL DEFAULT false,
    price_cents     integer NOT NULL DEFAULT 3995 CHECK (price_cents BETWEEN 0 AND 9999900),
    currency        text NOT NULL DEFAULT 'USD' CHECK (currency = 'USD'),
    is_free         boolean NOT NULL DEFAULT true,
    created_on      timestamptz NOT NULL DEFAULT now(),
    updated_on      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX communities_organization_id ON communities (organization_id);

CREATE TABLE community_memberships (
    community_id    uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    profile_id      uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    role            text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'cascadingAdmin', 'member')),
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending')),
    is_subscribed   boolean NOT NULL DEFAULT true,
    assigned_on     timestamptz NOT NULL DEFAULT now(),
    last_visited_on timestamptz,
    PRIMARY KEY (community_id, profile_id)
);
CREATE INDEX community_memberships_profile_id ON community_memberships (profile_id);

-- Forums keep the spec's data name, series.
CREATE TABLE series (
    id            uuid PRIMARY KEY,
    community_id  uuid NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 90),
    description   text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 1000),
    image         text,
    exclusivity   text NOT NULL DEFAULT 'inviteOnly' CHECK (exclusivity IN ('inviteOnly', 'open')),
    share_enabled boolean NOT NULL DEFAULT false,
    position      integer NOT NULL DEFAULT 0,
    price_cents   integer NOT NULL DEFAULT 0 CHECK (price_cents BETWEEN 0 AND 9999900),
    is_free       boolean NOT NULL DEFAULT true,
    created_on    timestamptz NOT NULL DEFAULT now(),
    updated_on    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX series_community_id ON series (community_id, position);

CREATE TABLE series_memberships (
    series_id     uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    profile_id    uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    role          text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member')),
    is_expert     boolean NOT NULL DEFAULT false,
    status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending')),
    is_subscribed boolean NOT NULL DEFAULT true,
    assigned_on   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (series_id, profile_id)
);
CREATE INDEX series_memberships_profile_id ON series_memberships (profile_id);

-- Mail that the dev mailbox shows when no SMTP server is configured.
CREATE TABLE dev_mail (
    id         uuid PRIMARY KEY,
    recipient  text NOT NULL,
    subject    text NOT NULL,
    body       text NOT NULL,
    created_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dev_mail_recipient ON dev_mail (recipient, created_on DESC);
