-- The words search finds (db/media-search.ts, migration 0026) next to punctuation and in emoji
-- (issue 38). PostgreSQL's parser reads `<script>` as a tag, `a.b@c.org` as an address and
-- `https://…/photos` as a link, and keeps none of them as the words inside (the 'simple'
-- configuration indexes no tag, and an address or link whole): "script" found no caption holding
-- `<script>alert(1)</script>`. It also reads emoji as spaces, so "🎉" found nothing. Now every
-- ASCII punctuation mark is a space before the parser reads the text, so only letters and digits
-- are left to make words of; and each emoji (one code point of the pictograph blocks) becomes a
-- word of its own, `emoji` and its code point in hex (`🎉` is emoji1f389), which the parser keeps
-- and a query (to_tsquery) spells the same way (db/media-search.ts searchWords makes the same
-- words of a search). The emoji presentation selectors (U+FE0E, U+FE0F) are spaces, so "❤" and
-- "❤️" are the same word; a skin tone is an emoji of its own.
CREATE FUNCTION search_words(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT to_tsvector('simple', regexp_replace(t,
      '[\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E\uFE0E\uFE0F\u2300-\u23FF\u2600-\u27BF\u2B00-\u2BFF\U0001F000-\U0001FAFF]',
      ' ', 'g'))
    || array_to_tsvector(ARRAY(
      SELECT DISTINCT 'emoji' || to_hex(ascii(m[1]))
      FROM regexp_matches(t, '([\u2300-\u23FF\u2600-\u27BF\u2B00-\u2BFF\U0001F000-\U0001FAFF])', 'g') AS m))
$$;
--> statement-breakpoint
DROP INDEX media_wall_caption_words_idx;
--> statement-breakpoint
DROP INDEX media_caption_words_idx;
--> statement-breakpoint
DROP INDEX users_name_words_idx;
--> statement-breakpoint
DROP INDEX organizations_name_words_idx;
--> statement-breakpoint
DROP INDEX devices_name_words_idx;
--> statement-breakpoint
CREATE INDEX media_wall_caption_words_idx ON media USING gin (search_words(caption))
  WHERE is_public AND is_uploaded AND hidden_from_wall_at IS NULL;
--> statement-breakpoint
CREATE INDEX media_caption_words_idx ON media USING gin (search_words(caption))
  WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX users_name_words_idx ON users USING gin (search_words(name));
--> statement-breakpoint
CREATE INDEX organizations_name_words_idx ON organizations USING gin (search_words(name));
--> statement-breakpoint
CREATE INDEX devices_name_words_idx ON devices USING gin (search_words(name));
--> statement-breakpoint
-- media_matching (migration 0026) with the same words: only `to_tsvector('simple', …)` became
-- `search_words(…)`, so each lookup still uses its index.
CREATE OR REPLACE FUNCTION media_matching(words text, on_wall boolean)
RETURNS TABLE (id integer, created_at timestamptz)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
SET max_parallel_workers_per_gather = 0
SET enable_hashagg = off
AS $$
DECLARE
  q tsquery := to_tsquery('simple', words);
BEGIN
  IF on_wall THEN
    RETURN QUERY SELECT DISTINCT x.id, x.created_at FROM (
      SELECT m.id, m.created_at FROM media m
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND search_words(m.caption) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN users u ON u.id = m.user_id
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND search_words(u.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN organizations o ON o.id = m.org_id
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND search_words(o.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN devices d ON d.id = m.device_id
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND search_words(d.name) @@ q) x;
  ELSE
    RETURN QUERY SELECT DISTINCT x.id, x.created_at FROM (
      SELECT m.id, m.created_at FROM media m
        WHERE m.is_uploaded AND search_words(m.caption) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN users u ON u.id = m.user_id
        WHERE m.is_uploaded AND search_words(u.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN organizations o ON o.id = m.org_id
        WHERE m.is_uploaded AND search_words(o.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN devices d ON d.id = m.device_id
        WHERE m.is_uploaded AND search_words(d.name) @@ q) x;
  END IF;
END
$$;
