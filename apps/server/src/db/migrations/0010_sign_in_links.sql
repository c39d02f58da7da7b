-- One-tap sign-in links (issue 14, item 2; docs/security.md). Every sign-in SMS carries a link
-- with a single-use token of 32 random bytes; only its SHA-256 is stored (a 256-bit random value
-- needs no slow or keyed hash). A link is bound to its pool and phone, lives as long as the code
-- sent with it, and is used up by one UPDATE ... WHERE used_at IS NULL AND expires_at > now
-- RETURNING, so two taps never give two sessions. Rows are deleted once expired (housekeeping).
CREATE TABLE sign_in_links (
  id bigserial PRIMARY KEY,
  pool text NOT NULL CHECK (pool IN ('regular', 'enterprise')),
  phone text NOT NULL,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- Housekeeping deletes by expiry.
CREATE INDEX sign_in_links_expires_idx ON sign_in_links (expires_at);
--> statement-breakpoint
-- A link that signs nobody in (unknown, used, expired or of the other pool) is recorded per client
-- address, like a code send, so an address that keeps trying is slowed down.
ALTER TABLE otp_events DROP CONSTRAINT otp_events_kind_check;
--> statement-breakpoint
ALTER TABLE otp_events
  ADD CONSTRAINT otp_events_kind_check CHECK (kind IN ('send', 'fail', 'link_fail'));
