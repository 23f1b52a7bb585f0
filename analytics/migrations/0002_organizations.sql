-- Organizations and communities as Postgres has them now, so that facts
-- (which carry their community) can be read by community and organization;
-- active = 0 once deleted. Written from each row's own change: they need
-- no look-up.
CREATE TABLE IF NOT EXISTS organizations (
    organization_id UUID,
    name            String,
    created_ms      UInt64,
    active          UInt8,
    version         UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY organization_id;

CREATE TABLE IF NOT EXISTS communities (
    community_id    UUID,
    organization_id UUID,
    name            String,
    created_ms      UInt64,
    active          UInt8,
    version         UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY community_id;
