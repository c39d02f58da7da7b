#!/bin/sh
# Sets up a booth computer (Debian 12 or Raspberry Pi OS bookworm) in one command. The Flashbooth
# server hands this script out at /booth/install.sh with its own address and its booth agent
# release filled in; the console shows the line to paste, with a one-time enrollment code:
#
#   curl -fsSL https://booths.example.com/booth/install.sh | sudo sh -s -- ABCD-EFGH
#
# It installs Node.js 24 (NodeSource's signed apt repository), gphoto2, ffmpeg and the CUPS client;
# a `flashbooth` system user; the server's booth agent release, checked against its size and
# SHA-256 and unpacked into /var/lib/flashbooth-booth/releases/<version>/app with its dependencies
# (npm ci, as locked), with the link releases/current pointing at it; the systemd unit
# flashbooth-booth.service, which always runs releases/current; and /usr/local/bin/flashbooth-booth.
# Then it enrolls the booth with the code and (re)starts the service. Update Software and rollouts
# install a release the same way and switch the same link.
#
# Without a code it installs or repairs and keeps the booth's settings. Running it again changes
# only what differs (files are compared before they are written) and restarts the service only
# when the agent, its unit or its settings changed.
#
# For tests: FLASHBOOTH_ROOT (default /) prefixes every path it writes, and the system commands
# (apt-get, dpkg-query, systemctl, useradd, usermod, getent, chown, npm, node, curl, gpg) are found
# on PATH, so a test puts stand-ins first. FLASHBOOTH_NODE_MAJOR picks NodeSource's line (24).
set -eu

# Filled in by the server (apps/server/src/modules/software/booth-install.ts).
SERVER_URL='@FLASHBOOTH_SERVER_URL@'
RELEASE_ID='@FLASHBOOTH_RELEASE_ID@'
RELEASE_VERSION='@FLASHBOOTH_RELEASE_VERSION@'
RELEASE_URL='@FLASHBOOTH_RELEASE_URL@'
RELEASE_SHA256='@FLASHBOOTH_RELEASE_SHA256@'
RELEASE_SIZE='@FLASHBOOTH_RELEASE_SIZE@'

ROOT="${FLASHBOOTH_ROOT:-/}"
ROOT="${ROOT%/}" # "" for the real root, so "$ROOT/etc" is /etc
NODE_MAJOR="${FLASHBOOTH_NODE_MAJOR:-24}"
NODE_MIN=24
SERVICE=flashbooth-booth.service
SERVICE_USER=flashbooth
SERVICE_GROUPS="video lp plugdev"
PACKAGES="gphoto2 ffmpeg cups-client ca-certificates curl"
CODE_ALPHABET=ABCDEFGHJKMNPQRSTWXYZ23456789

# Paths as the booth sees them; written under $ROOT.
DATA_DIR=/var/lib/flashbooth-booth
RELEASES=$DATA_DIR/releases
COMMAND=apps/booth-agent/bin/flashbooth-booth
BIN_LINK=/usr/local/bin/flashbooth-booth
SETTINGS_DIR=/etc/flashbooth
SETTINGS_FILE=$SETTINGS_DIR/booth.env
UNIT_FILE=/etc/systemd/system/$SERVICE
# Where install.sh put the agent before issue 39 (a copy of a git checkout); removed.
OLD_APP_DIR=/opt/flashbooth-booth

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
fail() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}

# Writes stdin to $ROOT$1 with mode $2 when its content or mode differ; says which.
put_file() {
  target="$ROOT$1"
  staged="$WORK/staged"
  cat >"$staged"
  if [ -f "$target" ] && cmp -s "$staged" "$target" &&
    [ "$(stat -c %a "$target")" = "${2#0}" ]; then
    say "unchanged: $1"
    return 1
  fi
  mkdir -p "$(dirname "$target")"
  install -m "$2" "$staged" "$target"
  say "written:   $1"
  return 0
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

node_ok() {
  version="$(node --version 2>/dev/null)" || return 1
  major="${version#v}"
  major="${major%%.*}"
  case "$major" in '' | *[!0-9]*) return 1 ;; esac
  [ "$major" -ge "$NODE_MIN" ]
}

apt_install() {
  apt-get update </dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" </dev/null
}

# Everything runs from this function, so `sh` has read the whole script from the pipe before
# any command that might read its standard input starts.
main() {
  code=""
  for arg in "$@"; do
    case "$arg" in
      -h | --help)
        say "Usage: curl -fsSL $SERVER_URL/booth/install.sh | sudo sh -s -- [CODE]"
        say "CODE: the enrollment code the console shows (Devices > the device > Enroll a booth computer)."
        return 0
        ;;
      -*) fail "unknown option $arg (the only argument is the enrollment code)" ;;
      *)
        [ -z "$code" ] || fail "one enrollment code only; got '$code' and '$arg'"
        code="$arg"
        ;;
    esac
  done
  if [ -n "$code" ]; then
    plain="$(printf '%s' "$code" | tr -d ' -' | tr '[:lower:]' '[:upper:]')"
    case "$plain" in
      *[!$CODE_ALPHABET]*) plain="" ;;
    esac
    [ "${#plain}" -eq 8 ] ||
      fail "Enter the 8-character enrollment code shown in the console, e.g. ABCD-EFGH."
  fi
  if ! printf '%s' "$RELEASE_SHA256" | grep -Eq '^[0-9a-f]{64}$'; then
    fail "this is the script's template: run the command the console shows (curl -fsSL <server>/booth/install.sh | sudo sh -s -- <code>)"
  fi
  if [ -z "${FLASHBOOTH_ROOT:-}" ] && [ "$(id -u)" != 0 ]; then
    fail "run it as root: curl -fsSL $SERVER_URL/booth/install.sh | sudo sh -s -- <code>"
  fi

  agent_changed=0
  unit_changed=0
  enrolled=0
  WORK="$(mktemp -d)"
  trap 'rm -rf "$WORK"' EXIT

  say "Flashbooth booth install from $SERVER_URL (booth agent $RELEASE_VERSION)"

  step "Operating system"
  if [ -r "$ROOT/etc/os-release" ]; then
    codename="$(. "$ROOT/etc/os-release" && printf '%s' "${VERSION_CODENAME:-}")"
    if [ "$codename" = bookworm ]; then
      say "Debian 12 (bookworm) or Raspberry Pi OS bookworm: supported"
    else
      say "warning: made for Debian 12 / Raspberry Pi OS bookworm; this is '${codename:-unknown}'"
    fi
  else
    say "warning: no $ROOT/etc/os-release; going on"
  fi

  step "Packages: Node.js $NODE_MIN or newer, $PACKAGES"
  missing=""
  for package in $PACKAGES; do installed "$package" || missing="$missing $package"; done
  if [ -n "$missing" ]; then
    # shellcheck disable=SC2086 # one word per package
    apt_install $missing
  fi
  if node_ok; then
    say "Node.js $(node --version) and every package are installed"
  else
    # Debian 12's own nodejs is 18; NodeSource's apt repository carries the current lines,
    # signed, and updates with the rest of the system (README, "Why NodeSource").
    say "Node.js $(node --version 2>/dev/null || echo 'not installed') is older than $NODE_MIN: adding NodeSource's node_$NODE_MAJOR.x repository"
    installed gnupg || apt_install gnupg
    mkdir -p "$ROOT/etc/apt/keyrings"
    curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key >"$WORK/nodesource.key" ||
      fail "could not download NodeSource's signing key"
    gpg --dearmor <"$WORK/nodesource.key" >"$WORK/nodesource.gpg"
    [ -s "$WORK/nodesource.gpg" ] || fail "NodeSource's signing key could not be read"
    put_file /etc/apt/keyrings/nodesource.gpg 0644 <"$WORK/nodesource.gpg" || true
    put_file /etc/apt/sources.list.d/nodesource.list 0644 <<EOF || true
deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_$NODE_MAJOR.x nodistro main
EOF
    apt-get update </dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs </dev/null
    node_ok || fail "Node.js $NODE_MIN or newer is still not installed ($(node --version 2>/dev/null || echo none))"
  fi

  step "User $SERVICE_USER (groups $SERVICE_GROUPS)"
  if getent passwd "$SERVICE_USER" >/dev/null; then
    say "unchanged: user $SERVICE_USER"
  else
    useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
      --shell /usr/sbin/nologin --comment "Flashbooth booth agent" "$SERVICE_USER"
    say "created:   user $SERVICE_USER"
  fi
  for group in $SERVICE_GROUPS; do
    entry="$(getent group "$group" || true)"
    if [ -z "$entry" ]; then
      say "skipped:   group $group does not exist here"
    else
      case ",${entry##*:}," in
        *",$SERVICE_USER,"*) say "unchanged: $SERVICE_USER in $group" ;;
        *)
          usermod -aG "$group" "$SERVICE_USER"
          say "added:     $SERVICE_USER to $group"
          ;;
      esac
    fi
  done

  step "The booth agent $RELEASE_VERSION in $RELEASES"
  version_dir="$RELEASES/$RELEASE_VERSION"
  app="$version_dir/app"
  file="$version_dir/flashbooth-$RELEASE_VERSION.tar.gz"
  if [ "$(readlink "$ROOT$RELEASES/current" 2>/dev/null || true)" = "$RELEASE_VERSION/app" ] &&
    [ -f "$ROOT$app/$COMMAND" ] && [ -d "$ROOT$app/node_modules" ]; then
    say "unchanged: $RELEASES/current -> $RELEASE_VERSION/app"
  else
    mkdir -p "$ROOT$version_dir"
    part="$ROOT$RELEASES/.download-install.part"
    rm -f "$part"
    curl -fsSL --retry 3 -o "$part" "$RELEASE_URL" </dev/null ||
      fail "could not download the booth agent from $SERVER_URL (run the command again; if it fails again, make a new code in the console)"
    size="$(wc -c <"$part" | tr -d ' ')"
    if [ "$size" != "$RELEASE_SIZE" ]; then
      rm -f "$part"
      fail "size mismatch: received $size bytes, the release should have $RELEASE_SIZE"
    fi
    sum="$(sha256sum "$part" | cut -d ' ' -f 1)"
    if [ "$sum" != "$RELEASE_SHA256" ]; then
      rm -f "$part"
      fail "checksum mismatch: the file's SHA-256 is $sum, the release's is $RELEASE_SHA256"
    fi
    mv "$part" "$ROOT$file"
    say "verified:  $file ($size bytes, SHA-256 $sum)"
    # Prepared beside the running release and renamed when complete, as an update does.
    rm -rf "$ROOT$app.next"
    mkdir -p "$ROOT$app.next"
    tar -xzf "$ROOT$file" -C "$ROOT$app.next" --no-same-owner
    [ -f "$ROOT$app.next/$COMMAND" ] || fail "the release $RELEASE_VERSION has no $COMMAND"
    (cd "$ROOT$app.next" && npm ci --omit=dev --workspace=@flashbooth/booth-agent --no-audit --no-fund </dev/null) ||
      fail "installing the agent's dependencies (npm ci) failed; run the command again"
    rm -rf "$ROOT$app"
    mv "$ROOT$app.next" "$ROOT$app"
    # The switch: a new link renamed over the old one.
    ln -sfn "$RELEASE_VERSION/app" "$ROOT$RELEASES/.current-install"
    mv -T "$ROOT$RELEASES/.current-install" "$ROOT$RELEASES/current"
    # What the agent reports as its installed release (as its own updates write it).
    cat >"$ROOT$RELEASES/current.json.tmp" <<EOF
{
  "release_id": $RELEASE_ID,
  "version": "$RELEASE_VERSION",
  "file": "$file",
  "sha256": "$RELEASE_SHA256",
  "size_bytes": $RELEASE_SIZE,
  "installed_at": "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)",
  "app": "$app"
}
EOF
    mv "$ROOT$RELEASES/current.json.tmp" "$ROOT$RELEASES/current.json"
    # The agent installs later releases itself, as its own user.
    chown -R "$SERVICE_USER:$SERVICE_USER" "$ROOT$DATA_DIR"
    agent_changed=1
    say "installed: $RELEASES/current -> $RELEASE_VERSION/app"
  fi
  target="$RELEASES/current/$COMMAND"
  if [ "$(readlink "$ROOT$BIN_LINK" 2>/dev/null || true)" = "$target" ]; then
    say "unchanged: $BIN_LINK"
  else
    mkdir -p "$ROOT$(dirname "$BIN_LINK")"
    ln -sfn "$target" "$ROOT$BIN_LINK"
    say "linked:    $BIN_LINK -> $target"
  fi

  step "Settings folder $SETTINGS_DIR"
  if [ -d "$ROOT$SETTINGS_DIR" ] && [ "$(stat -c %a "$ROOT$SETTINGS_DIR")" = 700 ]; then
    say "unchanged: $SETTINGS_DIR"
  else
    install -d -m 0700 "$ROOT$SETTINGS_DIR"
    say "made:      $SETTINGS_DIR (mode 700)"
  fi

  step "Service $SERVICE"
  if put_file "$UNIT_FILE" 0644 <<EOF; then unit_changed=1; fi
# Written by the booth's install script ($SERVER_URL/booth/install.sh); running it again rewrites
# this file.
[Unit]
Description=Flashbooth booth agent (camera, printer, delivery queue)
Documentation=file://$RELEASES/current/apps/booth-agent/README.md
Wants=network-online.target
After=network-online.target
# Starts once the booth is enrolled (its settings written).
ConditionPathExists=$SETTINGS_FILE

[Service]
Type=simple
User=$SERVICE_USER
Group=$SERVICE_USER
EnvironmentFile=-$SETTINGS_FILE
Environment=NODE_ENV=production
Environment=BOOTH_DATA_DIR=$DATA_DIR
Environment=BOOTH_RELEASES_DIR=$RELEASES
StateDirectory=flashbooth-booth
StateDirectoryMode=0750
WorkingDirectory=$DATA_DIR
# Always the installed release: Update Software and rollouts switch this link, and the agent
# exits after an update so that systemd starts it again from the new release.
ExecStart=$RELEASES/current/$COMMAND run
Restart=always
RestartSec=5
# A camera or printer that hangs is not worth waiting long for at shutdown.
TimeoutStopSec=20

[Install]
WantedBy=multi-user.target
EOF
  if [ "$unit_changed" = 1 ]; then systemctl daemon-reload; fi
  if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
    say "unchanged: $SERVICE enabled"
  else
    systemctl enable "$SERVICE"
    say "enabled:   $SERVICE (starts at boot)"
  fi

  if [ -n "$code" ]; then
    step "Enrollment with $SERVER_URL"
    "$ROOT$RELEASES/current/$COMMAND" enroll "$SERVER_URL" "$code" \
      --settings "$ROOT$SETTINGS_FILE" --no-restart </dev/null ||
      fail "the booth is installed but not enrolled (above): make a new code in the console and run its command again"
    enrolled=1
  fi

  if [ "$agent_changed" = 1 ] || [ "$unit_changed" = 1 ] || [ "$enrolled" = 1 ]; then
    if [ -f "$ROOT$SETTINGS_FILE" ]; then
      systemctl restart "$SERVICE"
      say "restarted: $SERVICE"
    else
      say "not started: not enrolled yet"
    fi
  else
    say "unchanged: $SERVICE not restarted"
  fi

  if [ -f "$ROOT$OLD_APP_DIR/$COMMAND" ]; then
    rm -rf "$ROOT$OLD_APP_DIR"
    say "removed:   $OLD_APP_DIR (the earlier install from a checkout)"
  fi

  step "Done"
  if [ -f "$ROOT$SETTINGS_FILE" ]; then
    say "The booth agent $RELEASE_VERSION runs as $SERVICE. Check the booth with:"
    say "  sudo flashbooth-booth doctor"
    say "and follow its log with:  journalctl -u flashbooth-booth -f"
  else
    say "Next: in the console, open Devices > the device > Enroll a booth computer (or register a"
    say "new device) and run the command it shows, with its code:"
    say "  curl -fsSL $SERVER_URL/booth/install.sh | sudo sh -s -- <code>"
  fi
}

main "$@"
