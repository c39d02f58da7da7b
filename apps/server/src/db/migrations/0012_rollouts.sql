-- Staged rollouts (issue 11): a channel's release sent to the channel's booths in waves (one
-- booth, then a quarter of the rest, then the rest). Every booth's state is kept here, so a
-- restarted server resumes a rollout and several instances share one without sending a booth
-- the same update twice (a booth is claimed pending → updating by one conditional UPDATE).
-- release_id becomes NULL when the release is deleted; version keeps what was rolled out.
CREATE TABLE rollouts (
  id serial PRIMARY KEY,
  channel_id integer NOT NULL REFERENCES software_channels (id) ON DELETE CASCADE,
  release_id integer REFERENCES software_releases (id) ON DELETE SET NULL,
  version text NOT NULL CHECK (version <> ''),
  state text NOT NULL DEFAULT 'running'
    CHECK (state IN ('running', 'paused', 'stopped', 'completed', 'cancelled')),
  -- The rollout stops itself when more booths than this have failed.
  max_failures integer NOT NULL CHECK (max_failures >= 0),
  stop_reason text,
  -- 0-based; the API shows it 1-based.
  current_wave integer NOT NULL DEFAULT 0 CHECK (current_wave >= 0),
  -- When the current wave began (or the rollout was last resumed): the wave timeout counts from it.
  wave_started_at timestamptz NOT NULL DEFAULT now(),
  started_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  -- Finished exactly when no longer running or paused.
  CONSTRAINT rollouts_finished_check
    CHECK ((state IN ('running', 'paused')) = (finished_at IS NULL))
);
--> statement-breakpoint
-- At most one running or paused rollout per channel: a second start is refused (409), and two
-- concurrent starts make one.
CREATE UNIQUE INDEX rollouts_active_once ON rollouts (channel_id)
  WHERE state IN ('running', 'paused');
--> statement-breakpoint
CREATE INDEX rollouts_channel_idx ON rollouts (channel_id, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX rollouts_release_idx ON rollouts (release_id);
--> statement-breakpoint
CREATE INDEX rollouts_started_by_idx ON rollouts (started_by);
--> statement-breakpoint
-- One row per booth of a rollout. attempts counts update commands sent; claimed_at is when the
-- latest was sent (state updating); next_attempt_at holds a retry back after a busy or silent
-- booth.
CREATE TABLE rollout_devices (
  rollout_id integer NOT NULL REFERENCES rollouts (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  wave integer NOT NULL CHECK (wave >= 0),
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'updating', 'updated', 'failed', 'skipped')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error text,
  claimed_at timestamptz,
  claimed_by text,
  next_attempt_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rollout_id, device_id),
  -- A booth being updated was claimed at some time.
  CONSTRAINT rollout_devices_claimed_check CHECK (state <> 'updating' OR claimed_at IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX rollout_devices_wave_idx ON rollout_devices (rollout_id, wave, state);
--> statement-breakpoint
CREATE INDEX rollout_devices_device_idx ON rollout_devices (device_id);
