-- Low-res previews are made after the booth's upload confirmation has answered, in the background
-- (media.service.ts, preview-worker.ts). An uploaded item with lowres_key NULL is waiting for its
-- preview; until then the API serves the HD image in its place. Any server instance may make a
-- preview: it claims the row by setting preview_claimed_until (a lease, so a crashed instance's
-- claim runs out and another takes over) and counting the attempt. preview_error records why the
-- preview could not be made (a JPEG corrupt beyond its header, or too many attempts); such an
-- item keeps showing the HD image and is not tried again.
ALTER TABLE media
  ADD COLUMN preview_attempts integer NOT NULL DEFAULT 0 CHECK (preview_attempts >= 0),
  ADD COLUMN preview_claimed_until timestamptz,
  ADD COLUMN preview_error text;
--> statement-breakpoint
-- The sweep's work list: uploaded items still waiting for a preview.
CREATE INDEX media_preview_pending_idx ON media (id)
  WHERE is_uploaded AND lowres_key IS NULL AND preview_error IS NULL;
