-- Sessions of people signed in to the web portal (/app/). The cookie holds a
-- random secret; only its SHA-256 digest is stored here. Revoked at sign-out
-- and on a password change; they end at `expires_at` regardless of use.
-- Not tenant-owned (like refresh_tokens): read before any tenant is known.
CREATE TABLE web_sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    digest TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);
CREATE INDEX web_sessions_by_user ON web_sessions (user_id);
