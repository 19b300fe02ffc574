-- The clerk's view of a period (GET .../returns?period=) needs each return's
-- first filing date: without this index every version row was read for it
-- (about 6 KB each, its filing and assessment documents beside the date), one
-- page per version; with it the dates come from the index alone.
CREATE INDEX return_versions_first_filed ON return_versions (municipality_id, return_id, filed_on);
