-- Foundation: zones, municipalities (the tenants), effective-dated zone
-- membership, and effective-dated policy versions (the ordinance as data).
-- Same shape as ../../postgres/2026-11-30-000001_foundation/up.sql.

CREATE TABLE zones (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    slug TEXT NOT NULL UNIQUE CHECK (length(slug) BETWEEN 1 AND 63),
    name TEXT NOT NULL,
    county TEXT NOT NULL,
    commission_name TEXT NOT NULL,
    tourism_entity_name TEXT,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE municipalities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    slug TEXT NOT NULL UNIQUE CHECK (length(slug) BETWEEN 1 AND 63),
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('city', 'village', 'town')),
    county TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- A membership is owned by its zone: zone_id leads the key.
CREATE TABLE zone_memberships (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    joined_on DATE NOT NULL,
    left_on DATE,
    PRIMARY KEY (zone_id, municipality_id, joined_on),
    CHECK (left_on IS NULL OR left_on > joined_on)
);
CREATE INDEX zone_memberships_by_municipality ON zone_memberships (municipality_id, joined_on);

-- One row per policy version; `document` is the policy JSON with a citation
-- beside every value. A version is never updated: a change is a new row.
CREATE TABLE policy_versions (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    effective_from DATE NOT NULL,
    document TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (municipality_id, effective_from)
);
