-- Where the recorded status stands among the booth's reports (StatusOrderSchema): a report older
-- than the recorded one is not written over it. With several instances sharing the booths'
-- reports (MQTT_SHARE_GROUP) two consecutive reports of one booth can be written by two
-- instances in the other order; so can a report whose write was retried after the database came
-- back. NULL: nothing ordered recorded yet (agents before the order, ping replies).
ALTER TABLE devices ADD COLUMN status_boot bigint;
--> statement-breakpoint
ALTER TABLE devices ADD COLUMN status_connection integer;
--> statement-breakpoint
ALTER TABLE devices ADD COLUMN status_seq bigint;
--> statement-breakpoint
-- When the order was recorded (server time): an order older than a few minutes no longer holds a
-- report back (a booth whose saved state was lost starts again from boot 0).
ALTER TABLE devices ADD COLUMN status_order_at timestamptz;
