-- Transfers of a payor's establishments to another payor (issue 9 item 8:
-- the sale of the business). Same tables as
-- ../../postgres/2026-12-05-000004_transfers/up.sql, which adds row-level
-- security, TRUNCATE triggers and the privileges.

-- A transfer is a fact: the seller, the buyer, the date and who recorded it.
-- The registry keeps both sides: the seller's establishment is closed on
-- transfer_on (its row stays), the buyer's is a new row opened on it.
CREATE TABLE payor_transfers (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    seller_payor_id TEXT NOT NULL,
    buyer_payor_id TEXT NOT NULL,
    transfer_on DATE NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, seller_payor_id) REFERENCES payors (municipality_id, id),
    FOREIGN KEY (municipality_id, buyer_payor_id) REFERENCES payors (municipality_id, id),
    CHECK (seller_payor_id <> buyer_payor_id)
);
CREATE INDEX payor_transfers_by_seller ON payor_transfers (municipality_id, seller_payor_id, transfer_on);
CREATE INDEX payor_transfers_by_buyer ON payor_transfers (municipality_id, buyer_payor_id, transfer_on);

-- Each establishment a transfer moved: the seller's row (closed) and the
-- buyer's (opened).
CREATE TABLE payor_transfer_establishments (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    transfer_id TEXT NOT NULL,
    seller_establishment_id TEXT NOT NULL,
    buyer_establishment_id TEXT NOT NULL,
    PRIMARY KEY (municipality_id, transfer_id, seller_establishment_id),
    UNIQUE (municipality_id, seller_establishment_id),
    UNIQUE (municipality_id, buyer_establishment_id),
    FOREIGN KEY (municipality_id, transfer_id) REFERENCES payor_transfers (municipality_id, id),
    FOREIGN KEY (municipality_id, seller_establishment_id) REFERENCES establishments (municipality_id, id),
    FOREIGN KEY (municipality_id, buyer_establishment_id) REFERENCES establishments (municipality_id, id)
);

CREATE TRIGGER payor_transfers_no_update BEFORE UPDATE ON payor_transfers
BEGIN
    SELECT RAISE(ABORT, 'payor_transfers is append-only');
END;
CREATE TRIGGER payor_transfers_no_delete BEFORE DELETE ON payor_transfers
BEGIN
    SELECT RAISE(ABORT, 'payor_transfers is append-only');
END;

CREATE TRIGGER payor_transfer_establishments_no_update BEFORE UPDATE ON payor_transfer_establishments
BEGIN
    SELECT RAISE(ABORT, 'payor_transfer_establishments is append-only');
END;
CREATE TRIGGER payor_transfer_establishments_no_delete BEFORE DELETE ON payor_transfer_establishments
BEGIN
    SELECT RAISE(ABORT, 'payor_transfer_establishments is append-only');
END;
