DROP TABLE policy_versions;
DROP TABLE zone_memberships;
DROP TABLE municipalities;
DROP TABLE zones;
