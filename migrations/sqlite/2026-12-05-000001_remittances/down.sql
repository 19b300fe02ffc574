DROP TABLE remittance_transfers;
DROP TABLE remittances;
