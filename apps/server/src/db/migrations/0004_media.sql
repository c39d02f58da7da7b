-- Photos and videos a booth delivers to a visitor. One row per item of a capture, created when
-- the capture is accepted (with its random object key), marked uploaded when the booth confirms.
-- Organization, device and template are copied at capture time and survive their deletion as NULL.
CREATE TABLE media (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer REFERENCES devices (id) ON DELETE SET NULL,
  org_id integer REFERENCES organizations (id) ON DELETE SET NULL,
  template_id integer REFERENCES templates (id) ON DELETE SET NULL,
  capture_id uuid NOT NULL,
  media_type text NOT NULL DEFAULT 'image' CHECK (media_type IN ('image', 'video')),
  s3_key text NOT NULL UNIQUE,
  lowres_key text,
  orientation text NOT NULL DEFAULT 'portrait' CHECK (orientation IN ('portrait', 'landscape')),
  caption text,
  is_public boolean NOT NULL DEFAULT false,
  is_repost_allowed boolean NOT NULL DEFAULT true,
  is_downloaded boolean NOT NULL DEFAULT false,
  is_shared boolean NOT NULL DEFAULT false,
  is_uploaded boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- My Media: a visitor's items newest first.
CREATE INDEX media_user_idx ON media (user_id, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX media_capture_idx ON media (capture_id);
--> statement-breakpoint
CREATE INDEX media_device_idx ON media (device_id);
--> statement-breakpoint
-- Every change of users.credits_paise, written in the same transaction as the change.
CREATE TABLE credit_ledger (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  delta_paise integer NOT NULL,
  reason text NOT NULL CHECK (reason IN ('capture', 'refund', 'grant')),
  media_capture_id uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX credit_ledger_user_idx ON credit_ledger (user_id, created_at DESC);
--> statement-breakpoint
-- A capture is charged at most once and refunded at most once.
CREATE UNIQUE INDEX credit_ledger_capture_once ON credit_ledger (media_capture_id, reason)
  WHERE media_capture_id IS NOT NULL;
