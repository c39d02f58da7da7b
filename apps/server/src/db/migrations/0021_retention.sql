-- Retention notices claimed per person: the media-retention and account-retention jobs lease a
-- person here while their one SMS is sent, so two instances never send it twice and an instance
-- that dies between the claim and the SMS leaves the person to the next run (the notice is
-- recorded, in media.retention_notice_at or users.erasure_notice_at, only once it was sent).
ALTER TABLE users ADD COLUMN media_notice_lease_until timestamptz;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN erasure_notice_lease_until timestamptz;
--> statement-breakpoint
-- The media-retention job's deletions: items whose notice is 48 hours old.
CREATE INDEX media_retention_notice_idx ON media (retention_notice_at) WHERE retention_notice_at IS NOT NULL;
--> statement-breakpoint
-- The sign-in purge: expired codes and refresh tokens by expiry.
CREATE INDEX otp_codes_expires_idx ON otp_codes (expires_at);
--> statement-breakpoint
CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);
--> statement-breakpoint
-- The media-retention job: capture records past retention whose items are gone.
CREATE INDEX captures_created_idx ON captures (created_at);
