-- Notification delivery (spec 000 §7 "Notifications and personalization";
-- spec 002 §3 "Notification settings", §4 "Reminders"): the browsers a
-- member turned push on in, what was sent for each notification, the digest
-- periods already mailed, and the unsubscribe links of the e-mails.
--
-- The delivery projection (projections/delivery) reads notifications from
-- the change stream, which may bring a row again (a replay, a rebuild): a
-- notification is sent once per channel and browser because its delivery
-- row is written, under its unique key, before anything is sent.

-- A browser's push subscription (RFC 8030): the push service's endpoint and
-- the browser's keys (RFC 8291), base64url as PushSubscription.toJSON gives
-- them. An endpoint belongs to one browser, so to one member at a time: a
-- second member signing in there takes it over.
CREATE TABLE push_subscriptions (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint     text NOT NULL UNIQUE CHECK (char_length(endpoint) <= 2000),
    p256dh       text NOT NULL CHECK (char_length(p256dh) <= 200),
    auth         text NOT NULL CHECK (char_length(auth) <= 100),
    created_on   timestamptz NOT NULL DEFAULT now(),
    last_used_on timestamptz
);
ALTER TABLE push_subscriptions REPLICA IDENTITY FULL;
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

-- One row per notification, channel and browser (subscription_id is null
-- for e-mail; NULLS NOT DISTINCT makes that one e-mail). sent_on is null
-- while the sending has not succeeded; attempts, last_attempt_on and
-- last_error say how often and why, and when to try again (with backoff).
CREATE TABLE notification_deliveries (
    id              uuid PRIMARY KEY,
    notification_id uuid NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    channel         text NOT NULL CHECK (channel IN ('email', 'push')),
    subscription_id uuid REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    sent_on         timestamptz,
    attempts        integer NOT NULL DEFAULT 0,
    last_attempt_on timestamptz,
    last_error      text,
    CHECK ((channel = 'push') = (subscription_id IS NOT NULL)),
    UNIQUE NULLS NOT DISTINCT (notification_id, channel, subscription_id)
);
ALTER TABLE notification_deliveries REPLICA IDENTITY FULL;
-- The deliveries still to retry.
CREATE INDEX notification_deliveries_pending ON notification_deliveries (last_attempt_on) WHERE sent_on IS NULL;

-- A digest period mailed: the row is written in the transaction that sends
-- it, so two schedulers (or a restart) mail a period once.
CREATE TABLE digest_runs (
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('posts', 'insights')),
    period_start timestamptz NOT NULL,
    sent_on      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, kind, period_start)
);
ALTER TABLE digest_runs REPLICA IDENTITY FULL;

-- An e-mail's unsubscribe link: a random token, kept as its hash (as
-- sessions and one-time tokens are), naming the member and the setting the
-- link turns off. It is not used up: a second click answers the same page.
CREATE TABLE unsubscribe_tokens (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    setting    text NOT NULL CHECK (setting IN ('notifications.email.mentions', 'notifications.email.privateChats',
        'notifications.digest.frequency', 'notifications.insights.frequency')),
    created_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE unsubscribe_tokens REPLICA IDENTITY FULL;
CREATE INDEX unsubscribe_tokens_user ON unsubscribe_tokens (user_id);

-- The dev mailbox keeps the List-Unsubscribe header, so tests and agora dev
-- can follow it.
ALTER TABLE dev_mail ADD COLUMN list_unsubscribe text NOT NULL DEFAULT '';
