DROP TABLE payor_transfer_establishments;
DROP TABLE payor_transfers;
