DROP INDEX payors_by_name_key;
ALTER TABLE payors DROP COLUMN legal_name_key;
