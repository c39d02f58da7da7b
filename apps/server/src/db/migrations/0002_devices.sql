-- Photobooths. The booth authenticates to the MQTT broker as thing_name with a secret that is
-- shown once at registration; only its SHA-256 is kept (a 32-byte random secret needs no
-- slow hash).
CREATE TABLE devices (
  id serial PRIMARY KEY,
  name text NOT NULL,
  org_id integer REFERENCES organizations (id) ON DELETE SET NULL,
  thing_name text NOT NULL UNIQUE,
  secret_hash text NOT NULL,
  status text NOT NULL DEFAULT 'offline',
  -- Software channels arrive later; the foreign key comes with them.
  software_channel_id integer,
  software_version text,
  price_paise integer NOT NULL DEFAULT 0 CHECK (price_paise >= 0),
  prints_left integer NOT NULL DEFAULT 700 CHECK (prints_left >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  pinged_at timestamptz
);
--> statement-breakpoint
CREATE INDEX devices_org_idx ON devices (org_id);
--> statement-breakpoint
CREATE TABLE device_errors (
  id bigserial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  error_message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX device_errors_device_idx ON device_errors (device_id, created_at DESC, id DESC);
