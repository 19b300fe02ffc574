DROP TABLE vehicle_fee_spending;
DROP TABLE vehicle_fee_remittances;
