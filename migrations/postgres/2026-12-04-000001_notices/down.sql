DROP TABLE notice_documents;
DROP TABLE notices;
