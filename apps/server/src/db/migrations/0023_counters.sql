-- Issue 26, point 4: statistics and list totals from counters (docs/benchmarks.md, "The public
-- wall"; docs/reference/server.md, "Organization statistics"). Every counter is kept exact by
-- triggers, in the transaction of the change (an insert, update or delete of media, payments or
-- refunds, whichever code path makes it, the retention and erasure jobs included); the row locks
-- of the counter rows order concurrent changes, and each adds its own delta to the committed
-- value. media_counters_rebuild() recounts everything from the rows (the backfill below, the
-- `counters-rebuild` job, the benchmarks' bulk seeding with triggers off).
--
-- Uploaded media per organization, booth and day (UTC): 0 stands for "none" (an item whose
-- organization or booth was deleted, or never set). All Media's and an organization's media
-- totals, the statistics' media totals and their weeks and months are sums of these rows.
CREATE TABLE media_daily_counts (
  org_id integer NOT NULL,
  device_id integer NOT NULL,
  day date NOT NULL,
  media integer NOT NULL,
  photos integer NOT NULL,
  videos integer NOT NULL,
  shared integer NOT NULL,
  downloaded integer NOT NULL,
  repost_allowed integer NOT NULL,
  CONSTRAINT media_daily_counts_pkey PRIMARY KEY (org_id, device_id, day)
);
--> statement-breakpoint
CREATE INDEX media_daily_counts_device_idx ON media_daily_counts (device_id);
--> statement-breakpoint
-- An organization's uploaded media per visitor and capture: a capture counts while it has one.
CREATE TABLE org_capture_counts (
  org_id integer NOT NULL,
  user_id integer NOT NULL,
  capture_id uuid NOT NULL,
  media integer NOT NULL,
  CONSTRAINT org_capture_counts_pkey PRIMARY KEY (org_id, user_id, capture_id)
);
--> statement-breakpoint
-- An organization's visitors: their uploaded media and their distinct captures.
CREATE TABLE org_user_counts (
  org_id integer NOT NULL,
  user_id integer NOT NULL,
  media integer NOT NULL,
  captures integer NOT NULL,
  CONSTRAINT org_user_counts_pkey PRIMARY KEY (org_id, user_id)
);
--> statement-breakpoint
-- An organization's totals over its visitors: captures, visitors, visitors with 2+ captures.
CREATE TABLE org_stat_totals (
  org_id integer PRIMARY KEY,
  captures integer NOT NULL,
  users integer NOT NULL,
  repeated_users integer NOT NULL
);
--> statement-breakpoint
-- An organization's uploaded media per template and capture, and the templates' capture counts.
CREATE TABLE org_template_capture_counts (
  org_id integer NOT NULL,
  template_id integer NOT NULL,
  capture_id uuid NOT NULL,
  media integer NOT NULL,
  CONSTRAINT org_template_capture_counts_pkey PRIMARY KEY (org_id, template_id, capture_id)
);
--> statement-breakpoint
CREATE TABLE org_template_counts (
  org_id integer NOT NULL,
  template_id integer NOT NULL,
  captures integer NOT NULL,
  CONSTRAINT org_template_counts_pkey PRIMARY KEY (org_id, template_id)
);
--> statement-breakpoint
-- Revenue per organization, booth (0: none) and month (UTC, by completion): the payments the
-- provider completed (COMPLETED, REFUND_PENDING, REFUNDED with completed_at), their amounts and
-- their refunds that did not fail.
CREATE TABLE org_revenue_monthly (
  org_id integer NOT NULL,
  device_id integer NOT NULL,
  month date NOT NULL,
  payments integer NOT NULL,
  gross_paise bigint NOT NULL,
  refunded_paise bigint NOT NULL,
  CONSTRAINT org_revenue_monthly_pkey PRIMARY KEY (org_id, device_id, month)
);
--> statement-breakpoint
-- One media row's part in the counters, added (sign 1) or taken back (sign -1). Only uploaded
-- items count (as in the statistics and the staff lists).
CREATE FUNCTION media_counters_add(m media, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  day_of date := (m.created_at AT TIME ZONE 'UTC')::date;
  n integer;
  pair_delta integer := 0;
  template_delta integer;
  media_after integer;
  captures_after integer;
BEGIN
  IF NOT m.is_uploaded THEN
    RETURN;
  END IF;
  INSERT INTO media_daily_counts AS c
    (org_id, device_id, day, media, photos, videos, shared, downloaded, repost_allowed)
  VALUES (coalesce(m.org_id, 0), coalesce(m.device_id, 0), day_of, sign,
    CASE WHEN m.media_type = 'image' THEN sign ELSE 0 END,
    CASE WHEN m.media_type = 'video' THEN sign ELSE 0 END,
    CASE WHEN m.is_shared THEN sign ELSE 0 END,
    CASE WHEN m.is_downloaded THEN sign ELSE 0 END,
    CASE WHEN m.is_repost_allowed THEN sign ELSE 0 END)
  ON CONFLICT (org_id, device_id, day) DO UPDATE SET
    media = c.media + excluded.media, photos = c.photos + excluded.photos,
    videos = c.videos + excluded.videos, shared = c.shared + excluded.shared,
    downloaded = c.downloaded + excluded.downloaded,
    repost_allowed = c.repost_allowed + excluded.repost_allowed
  RETURNING c.media INTO n;
  IF n = 0 THEN
    DELETE FROM media_daily_counts
     WHERE org_id = coalesce(m.org_id, 0) AND device_id = coalesce(m.device_id, 0)
       AND day = day_of AND media = 0;
  END IF;
  IF m.org_id IS NULL THEN
    RETURN;
  END IF;
  -- The (visitor, capture) pair: counts from its first item to its last one gone.
  INSERT INTO org_capture_counts AS c (org_id, user_id, capture_id, media)
  VALUES (m.org_id, m.user_id, m.capture_id, sign)
  ON CONFLICT (org_id, user_id, capture_id) DO UPDATE SET media = c.media + excluded.media
  RETURNING c.media INTO n;
  IF sign = 1 AND n = 1 THEN
    pair_delta := 1;
  ELSIF sign = -1 AND n = 0 THEN
    pair_delta := -1;
    DELETE FROM org_capture_counts
     WHERE org_id = m.org_id AND user_id = m.user_id AND capture_id = m.capture_id AND media = 0;
  END IF;
  -- The visitor: present while they have an item; repeated from their second capture.
  INSERT INTO org_user_counts AS c (org_id, user_id, media, captures)
  VALUES (m.org_id, m.user_id, sign, pair_delta)
  ON CONFLICT (org_id, user_id) DO UPDATE SET
    media = c.media + excluded.media, captures = c.captures + excluded.captures
  RETURNING c.media, c.captures INTO media_after, captures_after;
  INSERT INTO org_stat_totals AS t (org_id, captures, users, repeated_users)
  VALUES (m.org_id, pair_delta,
    (media_after > 0)::integer - (media_after - sign > 0)::integer,
    (captures_after >= 2)::integer - (captures_after - pair_delta >= 2)::integer)
  ON CONFLICT (org_id) DO UPDATE SET
    captures = t.captures + excluded.captures, users = t.users + excluded.users,
    repeated_users = t.repeated_users + excluded.repeated_users;
  IF media_after = 0 THEN
    DELETE FROM org_user_counts WHERE org_id = m.org_id AND user_id = m.user_id AND media = 0;
  END IF;
  -- The template's captures.
  IF m.template_id IS NOT NULL THEN
    INSERT INTO org_template_capture_counts AS c (org_id, template_id, capture_id, media)
    VALUES (m.org_id, m.template_id, m.capture_id, sign)
    ON CONFLICT (org_id, template_id, capture_id) DO UPDATE SET media = c.media + excluded.media
    RETURNING c.media INTO n;
    template_delta := CASE WHEN sign = 1 AND n = 1 THEN 1 WHEN sign = -1 AND n = 0 THEN -1 ELSE 0 END;
    IF n = 0 THEN
      DELETE FROM org_template_capture_counts
       WHERE org_id = m.org_id AND template_id = m.template_id AND capture_id = m.capture_id
         AND media = 0;
    END IF;
    IF template_delta <> 0 THEN
      INSERT INTO org_template_counts AS c (org_id, template_id, captures)
      VALUES (m.org_id, m.template_id, template_delta)
      ON CONFLICT (org_id, template_id) DO UPDATE SET captures = c.captures + excluded.captures
      RETURNING c.captures INTO n;
      IF n = 0 THEN
        DELETE FROM org_template_counts
         WHERE org_id = m.org_id AND template_id = m.template_id AND captures = 0;
      END IF;
    END IF;
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION media_counters_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM media_counters_add(OLD, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM media_counters_add(NEW, 1);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER media_counters_insert_trigger AFTER INSERT ON media FOR EACH ROW
  WHEN (NEW.is_uploaded)
  EXECUTE FUNCTION media_counters_trigger();
--> statement-breakpoint
CREATE TRIGGER media_counters_delete_trigger AFTER DELETE ON media FOR EACH ROW
  WHEN (OLD.is_uploaded)
  EXECUTE FUNCTION media_counters_trigger();
--> statement-breakpoint
CREATE TRIGGER media_counters_update_trigger
  AFTER UPDATE OF is_uploaded, org_id, device_id, user_id, capture_id, template_id, media_type,
    is_shared, is_downloaded, is_repost_allowed, created_at ON media FOR EACH ROW
  WHEN ((OLD.is_uploaded OR NEW.is_uploaded) AND (
    OLD.is_uploaded, OLD.org_id, OLD.device_id, OLD.user_id, OLD.capture_id, OLD.template_id,
    OLD.media_type, OLD.is_shared, OLD.is_downloaded, OLD.is_repost_allowed, OLD.created_at)
    IS DISTINCT FROM (NEW.is_uploaded, NEW.org_id, NEW.device_id, NEW.user_id, NEW.capture_id,
    NEW.template_id, NEW.media_type, NEW.is_shared, NEW.is_downloaded, NEW.is_repost_allowed,
    NEW.created_at))
  EXECUTE FUNCTION media_counters_trigger();
--> statement-breakpoint
-- One payment's part in the revenue counters with its refunds that did not fail, added or taken
-- back. The caller holds the payment row's lock (its update or delete, or the refund trigger's
-- FOR UPDATE), so a refund and its payment are never counted from two different states.
CREATE FUNCTION revenue_counters_add(p payment_transactions, sign integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  refunded bigint;
  n integer;
  month_of date;
BEGIN
  IF p.org_id IS NULL OR p.completed_at IS NULL
     OR p.state NOT IN ('COMPLETED', 'REFUND_PENDING', 'REFUNDED') THEN
    RETURN;
  END IF;
  month_of := date_trunc('month', p.completed_at AT TIME ZONE 'UTC')::date;
  SELECT coalesce(sum(amount_paise), 0) INTO refunded
    FROM payment_refunds WHERE transaction_id = p.id AND state <> 'FAILED';
  INSERT INTO org_revenue_monthly AS r
    (org_id, device_id, month, payments, gross_paise, refunded_paise)
  VALUES (p.org_id, coalesce(p.device_id, 0), month_of, sign, sign * p.amount_paise,
    sign * refunded)
  ON CONFLICT (org_id, device_id, month) DO UPDATE SET
    payments = r.payments + excluded.payments,
    gross_paise = r.gross_paise + excluded.gross_paise,
    refunded_paise = r.refunded_paise + excluded.refunded_paise
  RETURNING r.payments INTO n;
  IF n = 0 THEN
    DELETE FROM org_revenue_monthly
     WHERE org_id = p.org_id AND device_id = coalesce(p.device_id, 0) AND month = month_of
       AND payments = 0;
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION revenue_payment_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM revenue_counters_add(OLD, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM revenue_counters_add(NEW, 1);
  END IF;
  IF TG_WHEN = 'BEFORE' THEN
    RETURN OLD;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER revenue_payment_insert_trigger AFTER INSERT ON payment_transactions FOR EACH ROW
  WHEN (NEW.completed_at IS NOT NULL AND NEW.org_id IS NOT NULL)
  EXECUTE FUNCTION revenue_payment_trigger();
--> statement-breakpoint
-- Before the delete: its refunds (deleted with it, by the foreign key) are still there to read.
CREATE TRIGGER revenue_payment_delete_trigger BEFORE DELETE ON payment_transactions FOR EACH ROW
  WHEN (OLD.completed_at IS NOT NULL AND OLD.org_id IS NOT NULL)
  EXECUTE FUNCTION revenue_payment_trigger();
--> statement-breakpoint
CREATE TRIGGER revenue_payment_update_trigger
  AFTER UPDATE OF org_id, device_id, state, completed_at, amount_paise ON payment_transactions
  FOR EACH ROW
  WHEN ((OLD.org_id, OLD.device_id, OLD.state, OLD.completed_at, OLD.amount_paise)
    IS DISTINCT FROM (NEW.org_id, NEW.device_id, NEW.state, NEW.completed_at, NEW.amount_paise))
  EXECUTE FUNCTION revenue_payment_trigger();
--> statement-breakpoint
-- A refund changes its payment's refunded amount: the payment's part is taken back as it was
-- before the refund's change and added as it is after (refunds read inside revenue_counters_add).
CREATE FUNCTION revenue_refund_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p payment_transactions;
  before_paise bigint;
  after_paise bigint;
  month_of date;
BEGIN
  FOR p IN
    SELECT * FROM payment_transactions
     WHERE id IN (CASE WHEN TG_OP <> 'INSERT' THEN OLD.transaction_id END,
                  CASE WHEN TG_OP <> 'DELETE' THEN NEW.transaction_id END)
     FOR UPDATE
  LOOP
    IF p.org_id IS NULL OR p.completed_at IS NULL
       OR p.state NOT IN ('COMPLETED', 'REFUND_PENDING', 'REFUNDED') THEN
      CONTINUE;
    END IF;
    before_paise := CASE WHEN TG_OP <> 'INSERT' AND OLD.transaction_id = p.id
      AND OLD.state <> 'FAILED' THEN OLD.amount_paise ELSE 0 END;
    after_paise := CASE WHEN TG_OP <> 'DELETE' AND NEW.transaction_id = p.id
      AND NEW.state <> 'FAILED' THEN NEW.amount_paise ELSE 0 END;
    IF before_paise = after_paise THEN
      CONTINUE;
    END IF;
    month_of := date_trunc('month', p.completed_at AT TIME ZONE 'UTC')::date;
    UPDATE org_revenue_monthly
       SET refunded_paise = refunded_paise + after_paise - before_paise
     WHERE org_id = p.org_id AND device_id = coalesce(p.device_id, 0) AND month = month_of;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER revenue_refund_trigger
  AFTER INSERT OR DELETE OR UPDATE OF transaction_id, state, amount_paise ON payment_refunds
  FOR EACH ROW EXECUTE FUNCTION revenue_refund_trigger();
--> statement-breakpoint
-- Every counter recounted from the rows, with writes to media, payments and refunds held off
-- meanwhile (a few seconds per million media): the backfill, the `counters-rebuild` job and a
-- bulk load with triggers off.
CREATE FUNCTION media_counters_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE media, payment_transactions, payment_refunds IN SHARE MODE;
  DELETE FROM media_daily_counts;
  DELETE FROM org_capture_counts;
  DELETE FROM org_user_counts;
  DELETE FROM org_stat_totals;
  DELETE FROM org_template_capture_counts;
  DELETE FROM org_template_counts;
  DELETE FROM org_revenue_monthly;
  INSERT INTO media_daily_counts
    (org_id, device_id, day, media, photos, videos, shared, downloaded, repost_allowed)
  SELECT coalesce(org_id, 0), coalesce(device_id, 0), (created_at AT TIME ZONE 'UTC')::date,
         count(*), count(*) FILTER (WHERE media_type = 'image'),
         count(*) FILTER (WHERE media_type = 'video'), count(*) FILTER (WHERE is_shared),
         count(*) FILTER (WHERE is_downloaded), count(*) FILTER (WHERE is_repost_allowed)
    FROM media WHERE is_uploaded GROUP BY 1, 2, 3;
  INSERT INTO org_capture_counts (org_id, user_id, capture_id, media)
  SELECT org_id, user_id, capture_id, count(*)
    FROM media WHERE is_uploaded AND org_id IS NOT NULL GROUP BY 1, 2, 3;
  INSERT INTO org_user_counts (org_id, user_id, media, captures)
  SELECT org_id, user_id, sum(media), count(*) FROM org_capture_counts GROUP BY 1, 2;
  INSERT INTO org_stat_totals (org_id, captures, users, repeated_users)
  SELECT org_id, sum(captures), count(*), count(*) FILTER (WHERE captures >= 2)
    FROM org_user_counts GROUP BY 1;
  INSERT INTO org_template_capture_counts (org_id, template_id, capture_id, media)
  SELECT org_id, template_id, capture_id, count(*)
    FROM media WHERE is_uploaded AND org_id IS NOT NULL AND template_id IS NOT NULL
   GROUP BY 1, 2, 3;
  INSERT INTO org_template_counts (org_id, template_id, captures)
  SELECT org_id, template_id, count(*) FROM org_template_capture_counts GROUP BY 1, 2;
  INSERT INTO org_revenue_monthly (org_id, device_id, month, payments, gross_paise, refunded_paise)
  SELECT p.org_id, coalesce(p.device_id, 0),
         date_trunc('month', p.completed_at AT TIME ZONE 'UTC')::date,
         count(*), sum(p.amount_paise), coalesce(sum(r.refunded), 0)
    FROM payment_transactions p
    LEFT JOIN LATERAL (
      SELECT sum(amount_paise) AS refunded FROM payment_refunds
       WHERE transaction_id = p.id AND state <> 'FAILED'
    ) r ON true
   WHERE p.org_id IS NOT NULL AND p.completed_at IS NOT NULL
     AND p.state IN ('COMPLETED', 'REFUND_PENDING', 'REFUNDED')
   GROUP BY 1, 2, 3;
END;
$$;
--> statement-breakpoint
SELECT media_counters_rebuild();
--> statement-breakpoint
-- An organization's repost-allowed media, newest first (its staff media view, by offset or cursor).
CREATE INDEX media_org_repost_idx ON media (org_id, created_at DESC, id DESC)
  WHERE is_uploaded AND is_repost_allowed;
