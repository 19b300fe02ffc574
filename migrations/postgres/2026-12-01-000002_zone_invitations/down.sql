DROP TABLE zone_invitations;
