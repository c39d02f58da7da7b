-- Accounts of both sign-in pools. The same phone may be a visitor and a staff member: two rows.
CREATE TABLE users (
  id serial PRIMARY KEY,
  pool text NOT NULL CHECK (pool IN ('regular', 'enterprise')),
  phone text NOT NULL,
  name text NOT NULL,
  email text,
  dob date,
  gender text,
  is_super_user boolean NOT NULL DEFAULT false,
  is_flashbooth_admin boolean NOT NULL DEFAULT false,
  credits_paise integer NOT NULL DEFAULT 0 CHECK (credits_paise >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (pool, phone)
);
--> statement-breakpoint
CREATE TABLE organizations (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text,
  phone text,
  address text,
  logo_key text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE organization_members (
  org_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('member', 'admin')),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, user_id)
);
--> statement-breakpoint
CREATE INDEX organization_members_user_idx ON organization_members (user_id);
--> statement-breakpoint
-- At most one live code per phone and pool: a new code replaces the old one.
CREATE TABLE otp_codes (
  pool text NOT NULL,
  phone text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pool, phone)
);
--> statement-breakpoint
-- Code sends and failed verifications, for throttling and lockout.
CREATE TABLE otp_events (
  id bigserial PRIMARY KEY,
  pool text NOT NULL,
  phone text NOT NULL,
  ip text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('send', 'fail')),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX otp_events_phone_idx ON otp_events (pool, phone, kind, created_at);
--> statement-breakpoint
CREATE INDEX otp_events_ip_idx ON otp_events (ip, kind, created_at);
--> statement-breakpoint
-- Refresh tokens are stored only as hashes; rotation keeps the family so reuse can revoke it all.
CREATE TABLE refresh_tokens (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  pool text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  family_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
--> statement-breakpoint
-- The development SMS outbox (SMS_PROVIDER=outbox).
CREATE TABLE sms_outbox (
  id bigserial PRIMARY KEY,
  phone text NOT NULL,
  text text NOT NULL,
  code text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX sms_outbox_phone_idx ON sms_outbox (phone, id);
