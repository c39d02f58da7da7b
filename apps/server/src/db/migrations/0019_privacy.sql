-- Privacy: a visitor's data export and account erasure (by the visitor or by staff on request),
-- the log of staff privacy actions, expiring invitations, and a queue of objects to delete from
-- the store (erased records' files, unconfirmed uploads, expired exports).

-- Payment records outlive an erased account (the law on accounts keeps them for years): the
-- account's row goes, the payment stays with no link to a person (no name, no phone).
ALTER TABLE payment_transactions ALTER COLUMN user_id DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE payment_transactions DROP CONSTRAINT payment_transactions_user_id_fkey;
--> statement-breakpoint
ALTER TABLE payment_transactions ADD CONSTRAINT payment_transactions_user_id_fkey
  FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;
--> statement-breakpoint
-- An invitation not answered within INVITE_TTL_DAYS becomes 'expired' (it then no longer blocks
-- a new invitation of the same phone to the same organization).
ALTER TABLE organization_invitations DROP CONSTRAINT organization_invitations_status_check;
--> statement-breakpoint
ALTER TABLE organization_invitations ADD CONSTRAINT organization_invitations_status_check
  CHECK (status IN ('pending', 'accepted', 'denied', 'cancelled', 'expired'));
--> statement-breakpoint
-- Objects the store should no longer hold, each deleted once `delete_after` has passed: files of
-- erased or deleted records (due at once, queued in the transaction that deletes the row, so a
-- failed store call is retried instead of leaving an orphan), presigned uploads (due a day after
-- signing; removed from the queue when the upload is confirmed) and expired exports. Instances
-- claim rows with a lease (`claimed_until`), so no two delete the same object at once.
CREATE TABLE object_cleanup (
  object_key text PRIMARY KEY,
  reason text NOT NULL
    CHECK (reason IN ('erased', 'deleted_record', 'unconfirmed_upload', 'export_expired')),
  delete_after timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  claimed_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX object_cleanup_due_idx ON object_cleanup (delete_after);
--> statement-breakpoint
-- "Download my data": one ZIP per request, built in the background by whichever instance claims
-- it (`claimed_until`), kept in the store until `expires_at`, then deleted. `requested_by` is the
-- staff member who asked on the person's behalf (null when the person asked).
CREATE TABLE data_exports (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  requested_by integer REFERENCES users (id) ON DELETE SET NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ready', 'failed', 'expired')),
  object_key text,
  size_bytes bigint CHECK (size_bytes >= 0),
  item_count integer CHECK (item_count >= 0),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  claimed_until timestamptz,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  ready_at timestamptz,
  expires_at timestamptz,
  CONSTRAINT data_exports_ready_check
    CHECK ((state = 'ready') = (object_key IS NOT NULL AND expires_at IS NOT NULL))
);
--> statement-breakpoint
-- At most one export being built per person at a time.
CREATE UNIQUE INDEX data_exports_pending_once ON data_exports (user_id) WHERE state = 'pending';
--> statement-breakpoint
CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX data_exports_pending_idx ON data_exports (created_at) WHERE state = 'pending';
--> statement-breakpoint
CREATE INDEX data_exports_expiry_idx ON data_exports (expires_at) WHERE state = 'ready';
--> statement-breakpoint
-- The one-time code that confirms "Delete my account": a keyed hash only, one per account,
-- a few attempts, a few minutes. `sends` counts the codes sent since `window_started_at` for the
-- per-account limit.
CREATE TABLE account_erasure_codes (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  expires_at timestamptz NOT NULL,
  sends integer NOT NULL DEFAULT 1 CHECK (sends >= 1),
  window_started_at timestamptz NOT NULL
);
--> statement-breakpoint
-- Who exported or erased whose data, and when: plain ids (no foreign keys, so the record
-- outlives both accounts) and nothing else about either person. `actor_id` equals `subject_id`
-- when people act on their own data.
CREATE TABLE privacy_actions (
  id bigserial PRIMARY KEY,
  actor_id integer NOT NULL,
  subject_id integer NOT NULL,
  action text NOT NULL CHECK (action IN ('export', 'erase')),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX privacy_actions_created_idx ON privacy_actions (created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX privacy_actions_subject_idx ON privacy_actions (subject_id);
