DROP TABLE payments;
