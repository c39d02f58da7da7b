-- The staff media views at a million media (issue 13, docs/benchmarks.md "Staff media views"):
-- their pages come from an index in their order, newest first, for all uploaded media, an
-- organization's and a booth's; their search on captions covers every uploaded item (the wall's
-- caption index covers the wall's items only). Building them takes a few seconds per million
-- media, during which writes to media wait.
CREATE INDEX media_uploaded_idx ON media (created_at DESC, id DESC) WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX media_org_uploaded_idx ON media (org_id, created_at DESC, id DESC) WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX media_device_uploaded_idx ON media (device_id, created_at DESC, id DESC) WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX media_caption_trgm_idx ON media USING gin (caption gin_trgm_ops) WHERE is_uploaded;
