-- Print templates: a layout of image slots, an optional sample picture and foreground overlay
-- (object-store keys), and the organizations whose booths offer it.
CREATE TABLE templates (
  id serial PRIMARY KEY,
  name text NOT NULL,
  orientation text NOT NULL DEFAULT 'portrait' CHECK (orientation IN ('portrait', 'landscape')),
  is_cut boolean NOT NULL DEFAULT false,
  is_duplicated boolean NOT NULL DEFAULT false,
  sample_key text,
  foreground_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE template_images (
  id serial PRIMARY KEY,
  template_id integer NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
  x double precision NOT NULL CHECK (x >= 0),
  y double precision NOT NULL CHECK (y >= 0),
  w double precision NOT NULL CHECK (w > 0),
  h double precision NOT NULL CHECK (h > 0),
  filter text NOT NULL DEFAULT 'none',
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX template_images_template_idx ON template_images (template_id, id);
--> statement-breakpoint
CREATE TABLE template_organizations (
  template_id integer NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
  org_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (template_id, org_id)
);
--> statement-breakpoint
-- A booth lists its organization's templates in id order (cursor paging).
CREATE INDEX template_organizations_org_idx ON template_organizations (org_id, template_id);
