-- Paid communities and forums on Stripe (spec 000 §2.6, §3 "Price",
-- "Checkout session", §4 "Subscription"): each paid community and forum's
-- Stripe Product and Prices, the checkout sessions Agora made, each
-- member's subscriptions as Stripe's webhook tells them, and the webhook
-- events already applied.
--
-- Access to a paid community or forum (internal/access) is: administering
-- it; or an active membership that is complimentary (the membership's
-- is_subscribed, below) or a subscription row whose access_until is still
-- to come. The webhook handler (command/billing) computes access_until
-- when it applies an event, from the status, the period and the grace
-- period, so that the rule read on every request is one indexed lookup.
--
-- Every table has a primary key and REPLICA IDENTITY FULL: the relay needs
-- both to describe updates and deletes.

-- A member's Stripe customer: their subscriptions and the customer portal
-- hang on it.
CREATE TABLE billing_customers (
    user_id     uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id text NOT NULL,
    created_on  timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE billing_customers REPLICA IDENTITY FULL;

-- The Stripe Product of a paid community or forum, made at its first
-- checkout. product_id is the community's or forum's id, not a foreign
-- key: a product deleted in Agora stays billed in Stripe until its
-- subscriptions end, and its row says which Stripe product it was.
CREATE TABLE billing_products (
    product_id        uuid PRIMARY KEY,
    kind              text NOT NULL CHECK (kind IN ('community', 'forum')),
    stripe_product_id text NOT NULL,
    -- the name last given to Stripe; a rename is sent at the next checkout
    name              text NOT NULL,
    created_on        timestamptz NOT NULL DEFAULT now(),
    updated_on        timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE billing_products REPLICA IDENTITY FULL;

-- A product's Prices, one per monthly amount: a price change makes a new
-- Stripe Price for the checkouts after it, and the subscriptions made
-- before keep theirs (Stripe bills a subscription at its own Price). Going
-- back to an earlier amount reuses its Price.
CREATE TABLE billing_prices (
    product_id      uuid NOT NULL REFERENCES billing_products (product_id) ON DELETE CASCADE,
    amount_cents    integer NOT NULL CHECK (amount_cents BETWEEN 0 AND 9999900),
    currency        text NOT NULL CHECK (currency = 'USD'),
    stripe_price_id text NOT NULL,
    created_on      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (product_id, amount_cents, currency)
);
ALTER TABLE billing_prices REPLICA IDENTITY FULL;

-- The checkout sessions Agora made, with what each subscribes to: the dev
-- checkout page (agora dev on stripe-mock) reads them to show the items
-- and to make the events Stripe would send.
CREATE TABLE checkout_sessions (
    id                uuid PRIMARY KEY,
    stripe_session_id text NOT NULL,
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    customer_id       text NOT NULL,
    success_url       text NOT NULL,
    cancel_url        text NOT NULL,
    created_on        timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE checkout_sessions REPLICA IDENTITY FULL;
CREATE INDEX checkout_sessions_user ON checkout_sessions (user_id, created_on DESC);

CREATE TABLE checkout_session_items (
    session_id      uuid NOT NULL REFERENCES checkout_sessions (id) ON DELETE CASCADE,
    product_id      uuid NOT NULL,
    -- the community first, then the forum
    position        smallint NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('community', 'forum')),
    name            text NOT NULL,
    stripe_price_id text NOT NULL,
    amount_cents    integer NOT NULL CHECK (amount_cents BETWEEN 0 AND 9999900),
    currency        text NOT NULL CHECK (currency = 'USD'),
    PRIMARY KEY (session_id, product_id)
);
ALTER TABLE checkout_session_items REPLICA IDENTITY FULL;

-- One row per community or forum of a Stripe subscription (a forum bought
-- with its community is one subscription of two items), as its newest
-- webhook event says.
CREATE TABLE subscriptions (
    -- Stripe's subscription id (sub_…)
    id                   text NOT NULL,
    product_id           uuid NOT NULL,
    user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind                 text NOT NULL CHECK (kind IN ('community', 'forum')),
    -- the community itself, or the forum's
    community_id         uuid NOT NULL,
    -- the product's name when the row was last written (it may be gone)
    name                 text NOT NULL,
    customer_id          text NOT NULL DEFAULT '',
    stripe_price_id      text NOT NULL DEFAULT '',
    amount_cents         integer NOT NULL DEFAULT 0 CHECK (amount_cents BETWEEN 0 AND 9999900),
    currency             text NOT NULL DEFAULT 'USD' CHECK (currency = 'USD'),
    status               text NOT NULL CHECK (status IN ('incomplete', 'incomplete_expired', 'trialing', 'active',
                             'past_due', 'unpaid', 'canceled', 'paused')),
    current_period_end   timestamptz,
    cancel_at_period_end boolean NOT NULL DEFAULT false,
    -- when it became past due (a renewal's payment failed); the grace
    -- period runs from here
    past_due_since       timestamptz,
    ended_on             timestamptz,
    -- access ends then; null: none
    access_until         timestamptz,
    -- the newest event applied: its created time, then its status's rank
    -- (command/billing), which orders events of the same second
    event_created        timestamptz NOT NULL,
    event_rank           smallint NOT NULL,
    created_on           timestamptz NOT NULL DEFAULT now(),
    updated_on           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (id, product_id)
);
ALTER TABLE subscriptions REPLICA IDENTITY FULL;
-- The access rule: does this user's subscription to this product still
-- give access?
CREATE INDEX subscriptions_access ON subscriptions (user_id, product_id, access_until);

-- Stripe's webhook events already received, so that each is applied once:
-- the id is written in the transaction that applies the event.
CREATE TABLE stripe_events (
    id          text PRIMARY KEY,
    type        text NOT NULL,
    created     timestamptz NOT NULL,
    -- applied, stale (a newer event of its subscription came first) or
    -- ignored (a type or product Agora does not act on)
    result      text NOT NULL CHECK (result IN ('applied', 'stale', 'ignored')),
    received_on timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE stripe_events REPLICA IDENTITY FULL;

-- A membership's is_subscribed is complimentary access: given to everyone
-- who was a member before payments existed (and to the demo data), kept
-- as it is. A membership made from now on is not complimentary: in a free
-- community or forum that changes nothing, in a paid one its member
-- subscribes (admins never pay, by the access rule).
ALTER TABLE community_memberships ALTER COLUMN is_subscribed SET DEFAULT false;
ALTER TABLE series_memberships ALTER COLUMN is_subscribed SET DEFAULT false;
