-- Single sign-on: an organization's identity client (an OpenID Connect
-- relying party registration at the organization's identity provider) and
-- the sign-ins under way through it.
--
-- Both tables hold secrets (the client secret; a flow's PKCE verifier and
-- nonce), so the CDC relay and the Debezium connector leave them out
-- (relay.Excluded, deploy/debezium table.exclude.list): no change of theirs
-- reaches Kafka. organizations.identity_client, which is published, says
-- only whether single sign-on is on (the issuer URL, or null).
CREATE TABLE identity_clients (
    organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    issuer          text NOT NULL,
    client_id       text NOT NULL,
    client_secret   text NOT NULL,
    created_on      timestamptz NOT NULL DEFAULT now(),
    updated_on      timestamptz NOT NULL DEFAULT now()
);

-- A sign-in started at the identity provider: single use (used_on) and
-- short-lived. The state is kept as a hash, as tokens are; the verifier and
-- nonce must be had back to finish the flow.
CREATE TABLE sso_flows (
    id              uuid PRIMARY KEY,
    state_hash      bytea NOT NULL UNIQUE,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    code_verifier   text NOT NULL,
    nonce           text NOT NULL,
    redirect        text NOT NULL DEFAULT '',
    created_on      timestamptz NOT NULL DEFAULT now(),
    expires_on      timestamptz NOT NULL,
    used_on         timestamptz
);
CREATE INDEX sso_flows_expires_on ON sso_flows (expires_on);
