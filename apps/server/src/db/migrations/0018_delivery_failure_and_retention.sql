-- Issue 25: background jobs safe on many instances, delivery failures refunded once, and data
-- kept only as long as promised.
--
-- One row per background job: when the fleet may next run a `fleet` job (claimed by a
-- conditional update, so one instance runs it per interval), and the outcome of its last run for
-- the health details. Counts only, never personal data.
CREATE TABLE job_runs (
  name text PRIMARY KEY,
  next_run_at timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_success_at timestamptz,
  last_counts jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_error text,
  runs integer NOT NULL DEFAULT 0,
  failures integer NOT NULL DEFAULT 0
);
--> statement-breakpoint
-- A capture whose promised items were not all delivered within DELIVERY_DEADLINE_MINUTES of its
-- end, once (the primary key): what was refunded and how, and whether the visitor was told.
-- refund: 'payment' = to the payment method through the provider (merchant_refund_id, sent once
-- refund_sent_at is set; 'credit' when the provider refused and the amount became credit),
-- 'credit' = the visitor's credit back, 'none' = a free booth.
CREATE TABLE delivery_failures (
  capture_id uuid PRIMARY KEY REFERENCES captures (capture_id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer REFERENCES devices (id) ON DELETE SET NULL,
  org_id integer REFERENCES organizations (id) ON DELETE SET NULL,
  transaction_id integer REFERENCES payment_transactions (id) ON DELETE SET NULL,
  refund text NOT NULL,
  refund_paise integer NOT NULL DEFAULT 0,
  merchant_refund_id text UNIQUE,
  refund_sent_at timestamptz,
  refund_next_attempt_at timestamptz,
  items_promised integer NOT NULL,
  items_delivered integer NOT NULL,
  sms_sent_at timestamptz,
  sms_next_attempt_at timestamptz,
  detected_at timestamptz NOT NULL,
  CONSTRAINT delivery_failures_refund_check CHECK (refund IN ('payment', 'credit', 'none')),
  CONSTRAINT delivery_failures_refund_paise_check CHECK (refund_paise >= 0),
  CONSTRAINT delivery_failures_items_check CHECK (items_delivered >= 0 AND items_delivered < items_promised)
);
--> statement-breakpoint
-- The transaction's notice (My Transactions) and the organization's statistics.
CREATE INDEX delivery_failures_transaction_idx ON delivery_failures (transaction_id) WHERE transaction_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX delivery_failures_org_idx ON delivery_failures (org_id, detected_at);
--> statement-breakpoint
-- The delivery job's work lists: refunds not yet sent to the provider, SMS not yet sent.
CREATE INDEX delivery_failures_refund_due_idx ON delivery_failures (refund_next_attempt_at) WHERE refund_sent_at IS NULL AND refund = 'payment';
--> statement-breakpoint
CREATE INDEX delivery_failures_sms_due_idx ON delivery_failures (sms_next_attempt_at) WHERE sms_sent_at IS NULL;
--> statement-breakpoint
-- Retention: when the visitor was told (by SMS, 48 hours ahead) that the item will be deleted.
ALTER TABLE media ADD COLUMN retention_notice_at timestamptz;
--> statement-breakpoint
-- The retention job's scan: every item by age, uploaded or not.
CREATE INDEX media_created_idx ON media (created_at, id);
--> statement-breakpoint
-- Inactive accounts: the last sign-in (or session refresh), and when the person was told the
-- account will be deleted.
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN erasure_notice_at timestamptz;
--> statement-breakpoint
UPDATE users u SET last_sign_in_at = coalesce(
  (SELECT max(r.created_at) FROM refresh_tokens r WHERE r.user_id = u.id), u.created_at);
--> statement-breakpoint
CREATE INDEX users_last_sign_in_idx ON users (last_sign_in_at, id);
--> statement-breakpoint
-- Every sign-in and every session refresh issues a refresh token: its time is the account's last
-- sign-in, whatever the way in (code, link, passkey), and a returning person's notice is void.
CREATE FUNCTION users_last_sign_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users
     SET last_sign_in_at = greatest(coalesce(last_sign_in_at, NEW.created_at), NEW.created_at),
         erasure_notice_at = NULL
   WHERE id = NEW.user_id;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_last_sign_in_trigger AFTER INSERT ON refresh_tokens
  FOR EACH ROW EXECUTE FUNCTION users_last_sign_in();
--> statement-breakpoint
-- The payment-record purge: records by age.
CREATE INDEX payment_transactions_created_idx ON payment_transactions (created_at, id);
