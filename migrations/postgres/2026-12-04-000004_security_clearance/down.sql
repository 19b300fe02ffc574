DROP TABLE clearance_certificates;
DROP TABLE security_events;
DROP TABLE security_deposits;
