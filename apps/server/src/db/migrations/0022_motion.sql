-- Motion media. A template says what the booth captures: 'photo' (stills composed into a print),
-- 'gif' (motion_frames stills played as a loop), 'boomerang' (a burst played forward then back)
-- or 'video' (a clip of motion_seconds); motion_speed is the playback speed of the motion kinds,
-- and motion_prints whether a motion capture also prints the template with stills of the clip.
ALTER TABLE templates ADD COLUMN capture_kind text NOT NULL DEFAULT 'photo';
--> statement-breakpoint
ALTER TABLE templates ADD CONSTRAINT templates_capture_kind_check CHECK (capture_kind IN ('photo', 'gif', 'boomerang', 'video'));
--> statement-breakpoint
ALTER TABLE templates ADD COLUMN motion_frames integer NOT NULL DEFAULT 4;
--> statement-breakpoint
ALTER TABLE templates ADD CONSTRAINT templates_motion_frames_check CHECK (motion_frames BETWEEN 2 AND 6);
--> statement-breakpoint
ALTER TABLE templates ADD COLUMN motion_seconds double precision NOT NULL DEFAULT 5;
--> statement-breakpoint
ALTER TABLE templates ADD CONSTRAINT templates_motion_seconds_check CHECK (motion_seconds BETWEEN 3 AND 10);
--> statement-breakpoint
ALTER TABLE templates ADD COLUMN motion_speed double precision NOT NULL DEFAULT 1;
--> statement-breakpoint
ALTER TABLE templates ADD CONSTRAINT templates_motion_speed_check CHECK (motion_speed BETWEEN 0.5 AND 2);
--> statement-breakpoint
ALTER TABLE templates ADD COLUMN motion_prints boolean NOT NULL DEFAULT true;
--> statement-breakpoint
-- A video item's animated WebP preview (lists) and, for the gif kind, its .gif download. Its
-- poster JPEG is lowres_key, set when the row is made (the preview worker never makes one).
ALTER TABLE media ADD COLUMN preview_key text;
--> statement-breakpoint
ALTER TABLE media ADD COLUMN gif_key text;
--> statement-breakpoint
-- The statistics count media by kind (photos and videos) in their one pass over an
-- organization's uploaded media: the covering index carries the kind too.
DROP INDEX media_org_captures_idx;
--> statement-breakpoint
CREATE INDEX media_org_captures_idx ON media (org_id, user_id, capture_id, is_shared, is_downloaded, media_type)
  WHERE is_uploaded;
