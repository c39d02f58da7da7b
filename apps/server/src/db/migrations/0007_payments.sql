-- Payment transactions: a visitor pays for one capture at one booth with one template. The price
-- is copied at creation; organization, device and template survive their deletion as NULL.
-- `order_id` is our merchant order id at the provider (PhonePe's merchantOrderId, max 63 chars).
-- State: PENDING -> COMPLETED | FAILED (a provider-confirmed COMPLETED also wins over a FAILED we
-- decided ourselves, e.g. on expiry); COMPLETED -> REFUND_PENDING -> REFUNDED (or back to
-- COMPLETED when the provider refuses the refund); COMPLETED -> REFUNDED (refund as credit).
-- A late COMPLETED of a FAILED payment whose held credit was already given back would entitle a
-- capture worth more than was paid: it is refunded as credit at once (FAILED -> COMPLETED ->
-- REFUNDED in one database transaction) instead.
-- A COMPLETED payment entitles its visitor to one capture: `consumed_capture_id` is set when a
-- capture uses it and cleared again when that capture delivers nothing.
-- Partial credit: when the visitor's credit is above 0 but below the price, `credit_paise` of it
-- is held (taken from users.credits_paise with a 'payment_hold' ledger row) in the transaction
-- that creates the payment, and `amount_paise` (what the provider charges) is the price minus
-- that hold. The entitlement is worth amount + credit = the price. The hold goes back to the
-- visitor ('payment_release') when the payment ends without paying or is refunded.
CREATE TABLE payment_transactions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer REFERENCES devices (id) ON DELETE SET NULL,
  org_id integer REFERENCES organizations (id) ON DELETE SET NULL,
  template_id integer REFERENCES templates (id) ON DELETE SET NULL,
  provider text NOT NULL CHECK (provider IN ('sandbox', 'phonepe')),
  order_id text NOT NULL UNIQUE CHECK (order_id ~ '^[A-Za-z0-9_-]{1,63}$'),
  provider_order_id text,
  amount_paise integer NOT NULL CHECK (amount_paise > 0),
  credit_paise integer NOT NULL DEFAULT 0 CHECK (credit_paise >= 0),
  state text NOT NULL DEFAULT 'PENDING'
    CHECK (state IN ('PENDING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUNDED')),
  failure_reason text CHECK (failure_reason IN ('declined', 'expired', 'amount_mismatch')),
  redirect_url text,
  payment_url text,
  checkout_claimed_at timestamptz,
  -- Until then the visitor may open the checkout; afterwards the reconciler expires it.
  expires_at timestamptz NOT NULL,
  -- The reconciler's lease: PENDING rows are checked with the provider from this time on.
  next_check_at timestamptz NOT NULL,
  completed_at timestamptz,
  consumed_capture_id uuid,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- My Transactions: a visitor's payments newest first.
CREATE INDEX payment_transactions_user_idx
  ON payment_transactions (user_id, created_at DESC, id DESC);
--> statement-breakpoint
-- Capture entitlement: the unused paid captures of a visitor at a booth with a template.
CREATE INDEX payment_transactions_entitlement_idx
  ON payment_transactions (user_id, device_id, template_id, completed_at)
  WHERE state = 'COMPLETED' AND consumed_capture_id IS NULL;
--> statement-breakpoint
-- A capture uses at most one payment.
CREATE UNIQUE INDEX payment_transactions_capture_once
  ON payment_transactions (consumed_capture_id) WHERE consumed_capture_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX payment_transactions_reconcile_idx
  ON payment_transactions (next_check_at) WHERE state = 'PENDING';
--> statement-breakpoint
-- Every state change of a transaction, written in the same database transaction as the change.
CREATE TABLE payment_events (
  id bigserial PRIMARY KEY,
  transaction_id integer NOT NULL REFERENCES payment_transactions (id) ON DELETE CASCADE,
  from_state text NOT NULL,
  to_state text NOT NULL,
  source text NOT NULL,
  detail text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX payment_events_transaction_idx ON payment_events (transaction_id, id);
--> statement-breakpoint
-- The credit ledger (0004) learns payments and staff grants. users.credits_paise still changes
-- only in the same database transaction as a ledger row, so the balance is always the sum of
-- the visitor's ledger. New reasons: 'payment_hold' (credit held by a partially paid
-- transaction, negative) and 'payment_release' (that hold given back, positive); 'grant' is
-- now written by staff (POST /api/enterprise/users/{id}/credits) with a note and who granted it.
ALTER TABLE credit_ledger
  ADD COLUMN payment_transaction_id integer
    REFERENCES payment_transactions (id) ON DELETE SET NULL,
  ADD COLUMN note text CHECK (char_length(note) <= 200),
  ADD COLUMN granted_by integer REFERENCES users (id) ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_reason_check;
--> statement-breakpoint
-- Debits are negative, everything else positive: a row's sign can never contradict its reason.
ALTER TABLE credit_ledger
  ADD CONSTRAINT credit_ledger_reason_check
    CHECK (reason IN ('capture', 'refund', 'grant', 'payment_hold', 'payment_release')),
  ADD CONSTRAINT credit_ledger_delta_sign CHECK (
    (reason IN ('capture', 'payment_hold') AND delta_paise < 0)
    OR (reason IN ('refund', 'grant', 'payment_release') AND delta_paise > 0)
  );
--> statement-breakpoint
-- A payment transaction holds credit at most once, gives it back at most once and is refunded
-- as credit at most once (a second guard behind the row lock on the transaction).
CREATE UNIQUE INDEX credit_ledger_payment_once ON credit_ledger (payment_transaction_id, reason)
  WHERE payment_transaction_id IS NOT NULL;
--> statement-breakpoint
-- Refunds made by staff: to the original payment method through the provider, or as credit.
CREATE TABLE payment_refunds (
  id serial PRIMARY KEY,
  transaction_id integer NOT NULL REFERENCES payment_transactions (id) ON DELETE CASCADE,
  destination text NOT NULL CHECK (destination IN ('source', 'credit')),
  merchant_refund_id text NOT NULL UNIQUE,
  provider_refund_id text,
  amount_paise integer NOT NULL CHECK (amount_paise > 0),
  state text NOT NULL CHECK (state IN ('PENDING', 'COMPLETED', 'FAILED')),
  requested_by integer REFERENCES users (id) ON DELETE SET NULL,
  credit_ledger_id bigint REFERENCES credit_ledger (id) ON DELETE SET NULL,
  next_check_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- At most one refund in progress or done per transaction (a failed one may be retried).
CREATE UNIQUE INDEX payment_refunds_live_once
  ON payment_refunds (transaction_id) WHERE state <> 'FAILED';
--> statement-breakpoint
CREATE INDEX payment_refunds_reconcile_idx
  ON payment_refunds (next_check_at) WHERE state = 'PENDING';
--> statement-breakpoint
-- The built-in test provider ("sandbox"): its own orders and refunds, kept apart from ours as a
-- real provider's would be. Only used when PAYMENT_PROVIDER=sandbox.
CREATE TABLE sandbox_orders (
  order_id text PRIMARY KEY,
  provider_order_id text NOT NULL UNIQUE,
  amount_paise integer NOT NULL CHECK (amount_paise > 0),
  credit_paise integer NOT NULL DEFAULT 0 CHECK (credit_paise >= 0),
  state text NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'COMPLETED', 'FAILED')),
  redirect_url text NOT NULL,
  description text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE sandbox_refunds (
  refund_id text PRIMARY KEY,
  provider_refund_id text NOT NULL UNIQUE,
  order_id text NOT NULL REFERENCES sandbox_orders (order_id) ON DELETE CASCADE,
  amount_paise integer NOT NULL CHECK (amount_paise > 0),
  state text NOT NULL CHECK (state IN ('PENDING', 'COMPLETED', 'FAILED')),
  created_at timestamptz NOT NULL DEFAULT now()
);
