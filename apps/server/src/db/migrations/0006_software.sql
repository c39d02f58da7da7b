-- Booth software: releases (a version, notes and one uploaded file whose SHA-256 and size the
-- server computed when the upload was confirmed) and channels (a name pointing at one release).
-- A device follows one channel; an update installs that channel's release.
CREATE TABLE software_releases (
  id serial PRIMARY KEY,
  version text NOT NULL CHECK (version <> ''),
  release_notes text,
  s3_key text,
  sha256 text CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes bigint CHECK (size_bytes >= 0),
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- A file is either there with its checksum and size, or none of the three is.
  CHECK ((s3_key IS NULL) = (sha256 IS NULL) AND (s3_key IS NULL) = (size_bytes IS NULL))
);
--> statement-breakpoint
-- Versions are unique regardless of case ("1.0.0-RC1" and "1.0.0-rc1" would confuse staff).
CREATE UNIQUE INDEX software_releases_version_key ON software_releases (lower(version));
--> statement-breakpoint
CREATE INDEX software_releases_created_idx ON software_releases (created_at DESC, id DESC);
--> statement-breakpoint
-- A linked release cannot be deleted (RESTRICT): relink or unlink the channel first.
CREATE TABLE software_channels (
  id serial PRIMARY KEY,
  name text NOT NULL CHECK (name <> ''),
  description text,
  release_id integer REFERENCES software_releases (id) ON DELETE RESTRICT,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX software_channels_release_idx ON software_channels (release_id);
--> statement-breakpoint
CREATE INDEX software_channels_created_idx ON software_channels (created_at DESC, id DESC);
--> statement-breakpoint
-- devices.software_channel_id had no foreign key until now, so any value in it names a channel
-- that cannot exist (there were none): clear it before the key is added.
UPDATE devices SET software_channel_id = NULL WHERE software_channel_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE devices
  ADD CONSTRAINT devices_software_channel_id_fkey FOREIGN KEY (software_channel_id)
  REFERENCES software_channels (id) ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX devices_software_channel_idx ON devices (software_channel_id);
