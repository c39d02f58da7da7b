-- Passkeys (WebAuthn credentials) of both pools' accounts (issue 14 item 3). An account of one
-- pool signs in only with its own passkeys; deleting the account deletes them. credential_id
-- and public_key are base64url as the authenticator made them; counter is the signature counter
-- last seen (up to 2^32 - 1, so bigint; 0 when the authenticator keeps none); transports are the
-- hints the browser gave at registration.
CREATE TABLE passkeys (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  pool text NOT NULL CHECK (pool IN ('regular', 'enterprise')),
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
--> statement-breakpoint
-- The profile's list and the "has a passkey" check of the money-staff switch.
CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at);
--> statement-breakpoint
-- Challenges are signed and stateless (modules/passkeys/passkey-challenge.ts): nothing is stored
-- when options are asked for. A challenge is spent by inserting it here in the transaction that
-- accepts its response, so it is accepted at most once; rows are pruned once expired.
CREATE TABLE passkey_spent_challenges (
  challenge text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
--> statement-breakpoint
CREATE INDEX passkey_spent_challenges_expires_idx ON passkey_spent_challenges (expires_at);
