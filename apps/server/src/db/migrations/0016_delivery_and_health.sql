-- Issue 22: delivery measured per item and the booth's health kept with the device.
-- captured_at: when the booth's capture ended (from its delivery queue, kept within the capture's
-- own times); uploaded_at: when the booth's upload was confirmed; late_at: when the late sweep
-- found the item still undelivered an hour after its capture (it may still arrive).
ALTER TABLE media ADD COLUMN captured_at timestamptz;
--> statement-breakpoint
ALTER TABLE media ADD COLUMN uploaded_at timestamptz;
--> statement-breakpoint
ALTER TABLE media ADD COLUMN late_at timestamptz;
--> statement-breakpoint
-- A booth's delivery times over the last days: its confirmed uploads by confirmation time.
CREATE INDEX media_device_delivered_idx ON media (device_id, uploaded_at) WHERE uploaded_at IS NOT NULL;
--> statement-breakpoint
-- The late sweep and a booth's waiting items: items not uploaded, by age.
CREATE INDEX media_waiting_idx ON media (device_id, created_at) WHERE NOT is_uploaded;
--> statement-breakpoint
-- An organization's late items, for its statistics (few rows: only late ones).
CREATE INDEX media_org_late_idx ON media (org_id) WHERE late_at IS NOT NULL;
--> statement-breakpoint
-- The booth's last health report (DeviceHealthSchema) and when it came.
ALTER TABLE devices ADD COLUMN health jsonb;
--> statement-breakpoint
ALTER TABLE devices ADD COLUMN health_at timestamptz;
