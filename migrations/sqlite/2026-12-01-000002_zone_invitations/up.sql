-- Zone invitations: joining a zone takes both sides (issue 7 item 4). The zone
-- admin invites an existing municipality; its clerk-treasurer accepts or
-- declines; the zone admin may withdraw a pending one. No row is ever
-- deleted: declined and withdrawn invitations stay on record.
-- Same shape as ../../postgres/2026-12-01-000002_zone_invitations/up.sql.
-- Owned by the zone that sends it: zone_id leads the key.
CREATE TABLE zone_invitations (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    proposed_joined_on DATE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'withdrawn')),
    invited_by TEXT NOT NULL,
    invited_at TIMESTAMP NOT NULL,
    answered_by TEXT,
    answered_at TIMESTAMP,
    joined_on DATE,
    PRIMARY KEY (zone_id, id),
    CHECK ((status = 'pending') = (answered_at IS NULL)),
    CHECK ((status = 'accepted') = (joined_on IS NOT NULL))
);
CREATE INDEX zone_invitations_by_municipality ON zone_invitations (municipality_id, invited_at);
-- At most one pending invitation per zone and municipality.
CREATE UNIQUE INDEX zone_invitations_one_pending ON zone_invitations (zone_id, municipality_id)
    WHERE status = 'pending';
