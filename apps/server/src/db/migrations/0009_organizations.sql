-- Invitations to join an organization, by phone (staff spec sections 3 and 4). An invitation
-- names a phone, not an account: it waits for a phone with no staff account yet and shows once
-- that person signs up in the staff pool. pending → accepted | denied (by the invitee) |
-- cancelled (by staff); answered rows stay as history. Deleting the organization deletes its
-- invitations; deleting the inviting account keeps them without an inviter. sms_sent_at is set
-- when the invitation's SMS is let through the send throttle (the throttle counts these).
CREATE TABLE organization_invitations (
  id serial PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  invitee_phone text NOT NULL CHECK (invitee_phone ~ '^\+[1-9][0-9]{7,14}$'),
  role text NOT NULL CHECK (role IN ('member', 'admin')),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'accepted', 'denied', 'cancelled')),
  invited_by integer REFERENCES users (id) ON DELETE SET NULL,
  sms_sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  responded_at timestamptz,
  -- Answered exactly when no longer pending.
  CONSTRAINT organization_invitations_responded_check
    CHECK ((status = 'pending') = (responded_at IS NULL))
);
--> statement-breakpoint
-- At most one pending invitation per organization and phone: a second invite is refused (409),
-- and accept/deny by the invitee need only the organization to find it.
CREATE UNIQUE INDEX organization_invitations_pending_once
  ON organization_invitations (org_id, invitee_phone) WHERE status = 'pending';
--> statement-breakpoint
-- The invitee's list (users/{id}/invites) and the per-phone SMS throttle.
CREATE INDEX organization_invitations_phone_idx
  ON organization_invitations (invitee_phone, created_at DESC);
--> statement-breakpoint
-- Deleting a user sets invited_by NULL: the foreign key needs an index to do that quickly.
CREATE INDEX organization_invitations_invited_by_idx ON organization_invitations (invited_by);
--> statement-breakpoint
-- Guests of an organization: the visitors with media captured at its booths, latest visit first.
-- media.org_id is already ON DELETE SET NULL (0004): visitors keep their media when an
-- organization is deleted.
CREATE INDEX media_org_user_idx ON media (org_id, user_id, created_at DESC);
