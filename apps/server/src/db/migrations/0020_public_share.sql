-- Share pages and the kiosk wall. Every item gets an unguessable public id for its share page
-- (/p/{public_id}): 16 bytes of a random (v4) UUID, 122 random bits, as 22 base64url characters.
-- It is not the media id, so share links cannot be counted through; an item's page answers only
-- while the item is on the wall. The default fills every existing row (each its own value) and
-- every new one, whoever inserts it.
ALTER TABLE media ADD COLUMN public_id text NOT NULL
  DEFAULT rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=');
--> statement-breakpoint
ALTER TABLE media ADD CONSTRAINT media_public_id_key UNIQUE (public_id);
--> statement-breakpoint
-- The kiosk wall of one organization: its newest items on the wall.
CREATE INDEX media_org_wall_idx ON media (org_id, created_at DESC, id DESC)
  WHERE is_public AND is_uploaded AND hidden_from_wall_at IS NULL;
