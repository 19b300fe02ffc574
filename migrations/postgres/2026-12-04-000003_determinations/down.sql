DROP TABLE determinations;
