-- Error reports a booth publishes on flashbooth/devices/{thing}/errors carry a report_id: QoS 1
-- may deliver a report twice and every server instance on the broker hears it, so the log keeps
-- one row per (device, report). Rows the server writes itself have no report_id (NULLs are
-- distinct in a unique index).
ALTER TABLE device_errors ADD COLUMN report_id uuid;
--> statement-breakpoint
CREATE UNIQUE INDEX device_errors_report_once ON device_errors (device_id, report_id);
--> statement-breakpoint
-- Grows with every settings change staff make (a restock of prints_left). The server publishes
-- it retained with the settings; a booth's status counts for prints_left only once the booth
-- reports this revision applied.
ALTER TABLE devices ADD COLUMN settings_revision integer NOT NULL DEFAULT 0
  CHECK (settings_revision >= 0);
--> statement-breakpoint
-- One row per capture session (DESIGN.md 2b): what the visitor's entitlement was and whether it
-- is still owed a delivery. requested: the booth was asked; accepted: the booth took it;
-- delivered: at least one item arrived (the entitlement is used); failed: nothing arrived and
-- the entitlement was given back (exactly once: only the transaction that moves a capture to
-- failed gives anything back). deadline_at is when an accepted capture with nothing uploaded
-- counts as never delivered.
CREATE TABLE captures (
  capture_id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer REFERENCES devices (id) ON DELETE SET NULL,
  template_id integer REFERENCES templates (id) ON DELETE SET NULL,
  -- Credit taken for this capture (0: free, or paid otherwise).
  charged_paise integer NOT NULL DEFAULT 0 CHECK (charged_paise >= 0),
  state text NOT NULL DEFAULT 'requested'
    CHECK (state IN ('requested', 'accepted', 'delivered', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  deadline_at timestamptz NOT NULL,
  finished_at timestamptz,
  failure_reason text
);
--> statement-breakpoint
-- The sweep: open captures by deadline.
CREATE INDEX captures_open_deadline_idx ON captures (deadline_at)
  WHERE state IN ('requested', 'accepted');
--> statement-breakpoint
CREATE INDEX captures_device_idx ON captures (device_id);
--> statement-breakpoint
CREATE INDEX captures_user_idx ON captures (user_id);
--> statement-breakpoint
-- Captures made before this migration: delivered when something arrived, otherwise open with a
-- deadline 15 minutes after they started, so the sweep gives back what never came.
INSERT INTO captures (capture_id, user_id, device_id, template_id, charged_paise, state,
                      created_at, accepted_at, deadline_at, finished_at)
SELECT m.capture_id,
       min(m.user_id),
       min(m.device_id),
       min(m.template_id),
       coalesce((SELECT -l.delta_paise FROM credit_ledger l
                 WHERE l.media_capture_id = m.capture_id AND l.reason = 'capture'), 0),
       CASE WHEN bool_or(m.is_uploaded) THEN 'delivered' ELSE 'accepted' END,
       min(m.created_at),
       min(m.created_at),
       min(m.created_at) + interval '15 minutes',
       CASE WHEN bool_or(m.is_uploaded) THEN max(m.updated_at) END
FROM media m
GROUP BY m.capture_id;
