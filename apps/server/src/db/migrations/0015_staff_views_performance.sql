-- The staff media views and statistics at a million media (issue 13, docs/benchmarks.md "Staff
-- media views and statistics"):
-- their pages come from an index in their order, newest first, for all uploaded media, an
-- organization's and a booth's; their search on captions covers every uploaded item (the wall's
-- caption index covers the wall's items only); the statistics' totals read one organization's
-- visitors, captures and share and download flags from one index in order; the revenue statistics
-- read one organization's
-- completed payments instead of all. Building them takes a few seconds per million rows, during
-- which writes to those tables wait.
CREATE INDEX media_uploaded_idx ON media (created_at DESC, id DESC) WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX media_org_uploaded_idx ON media (org_id, created_at DESC, id DESC) WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX media_device_uploaded_idx ON media (device_id, created_at DESC, id DESC) WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX media_caption_trgm_idx ON media USING gin (caption gin_trgm_ops) WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX media_org_captures_idx ON media (org_id, user_id, capture_id, is_shared, is_downloaded)
  WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX payment_transactions_org_completed_idx ON payment_transactions (org_id, completed_at)
  WHERE completed_at IS NOT NULL;
