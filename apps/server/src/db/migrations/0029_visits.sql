-- A visit (issue 37): where a visitor is at a booth now, one row per visitor and booth. The row
-- holds what only the visit knows (the location confirmed, the template picked) and points at
-- the payment and the capture of the visitor's current round; their own rows hold their states,
-- so nothing is kept twice. Written in the same database transaction as the payment or capture
-- it points at (modules/visits/visit-links.ts); every visitor screen is drawn from one read of it.
CREATE TABLE visits (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  template_id integer REFERENCES templates (id) ON DELETE SET NULL,
  payment_transaction_id integer REFERENCES payment_transactions (id) ON DELETE SET NULL,
  capture_id uuid REFERENCES captures (capture_id) ON DELETE SET NULL,
  location_confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, device_id)
);
--> statement-breakpoint
-- A booth's visits (deleting a booth, a template or a payment finds them by index).
CREATE INDEX visits_device_idx ON visits (device_id);
--> statement-breakpoint
CREATE INDEX visits_payment_idx ON visits (payment_transaction_id)
  WHERE payment_transaction_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX visits_capture_idx ON visits (capture_id) WHERE capture_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX visits_template_idx ON visits (template_id) WHERE template_id IS NOT NULL;
--> statement-breakpoint
-- What a capture is, as the visitor's screen needs it to resume: its kind, the photos the booth
-- counts down for, and a motion kind's recording. Null for captures from before this migration.
ALTER TABLE captures
  ADD COLUMN capture_kind text CHECK (capture_kind IN ('photo', 'gif', 'boomerang', 'video')),
  ADD COLUMN total_captures integer CHECK (total_captures >= 0),
  ADD COLUMN record_seconds double precision CHECK (record_seconds >= 0);
--> statement-breakpoint
-- A payment the visitor cancelled at the provider ends as FAILED with reason 'cancelled'.
ALTER TABLE payment_transactions
  DROP CONSTRAINT payment_transactions_failure_reason_check,
  ADD CONSTRAINT payment_transactions_failure_reason_check
    CHECK (failure_reason IN ('declined', 'expired', 'amount_mismatch', 'cancelled'));
--> statement-breakpoint
-- The sandbox provider's "Cancel and go back": the order is FAILED and says it was cancelled.
ALTER TABLE sandbox_orders ADD COLUMN cancelled boolean NOT NULL DEFAULT false;
--> statement-breakpoint
-- Credit used by a capture, shown as a line of My Transactions: a visitor's ledger by reason.
CREATE INDEX credit_ledger_user_capture_idx ON credit_ledger (user_id, created_at DESC, id DESC)
  WHERE reason = 'capture';
