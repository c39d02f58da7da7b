-- Issue 22: one-time enrollment codes. A booth computer enrolls with a short code instead of a
-- pasted secret; the code is kept only as a keyed hash (HMAC-SHA-256), single use, for 30
-- minutes. One code per device: making a new one replaces the earlier one.
CREATE TABLE device_enrollment_codes (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  code_hash text NOT NULL UNIQUE,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
--> statement-breakpoint
-- Wrong, used or expired codes per client address: an address with too many in the window is
-- refused before any code is checked (rate limit of POST /api/device/enroll).
CREATE TABLE device_enrollment_failures (
  id bigserial PRIMARY KEY,
  ip text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX device_enrollment_failures_ip_idx ON device_enrollment_failures (ip, created_at);
