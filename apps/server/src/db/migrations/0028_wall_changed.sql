-- The wall's page cache (modules/wall/wall-cache.ts): every server instance keeps the wall pages
-- it has read and forgets them all when it hears `flashbooth_wall_changed`, which these triggers
-- send (NOTIFY, at commit; one per transaction however many rows it changes) whenever something
-- a wall page shows may have changed: an item that is or was public (its flags, caption, likes
-- count, preview), a like, a person's name or account, an organization's or booth's name.
-- Status reports, uploads of private items and the like do not notify (they change nothing a
-- wall page shows); a TRUNCATE always does.
CREATE FUNCTION wall_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('flashbooth_wall_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER media_wall_changed_insert AFTER INSERT ON media
  FOR EACH ROW WHEN (NEW.is_public) EXECUTE FUNCTION wall_changed();
--> statement-breakpoint
CREATE TRIGGER media_wall_changed_update AFTER UPDATE ON media
  FOR EACH ROW WHEN (OLD.is_public OR NEW.is_public) EXECUTE FUNCTION wall_changed();
--> statement-breakpoint
CREATE TRIGGER media_wall_changed_delete AFTER DELETE ON media
  FOR EACH ROW WHEN (OLD.is_public) EXECUTE FUNCTION wall_changed();
--> statement-breakpoint
CREATE TRIGGER media_wall_changed_truncate AFTER TRUNCATE ON media
  FOR EACH STATEMENT EXECUTE FUNCTION wall_changed();
--> statement-breakpoint
CREATE TRIGGER media_likes_wall_changed AFTER INSERT OR DELETE OR TRUNCATE ON media_likes
  FOR EACH STATEMENT EXECUTE FUNCTION wall_changed();
--> statement-breakpoint
CREATE TRIGGER users_wall_changed AFTER UPDATE OF name OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION wall_changed();
--> statement-breakpoint
CREATE TRIGGER organizations_wall_changed AFTER UPDATE OF name OR DELETE OR TRUNCATE
  ON organizations FOR EACH STATEMENT EXECUTE FUNCTION wall_changed();
--> statement-breakpoint
CREATE TRIGGER devices_wall_changed AFTER UPDATE OF name OR DELETE OR TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION wall_changed();
