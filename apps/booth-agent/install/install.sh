#!/usr/bin/env bash
# Sets up a booth computer (Debian 12 or Raspberry Pi OS bookworm) to run the Flashbooth booth
# agent as a service: Node.js, gphoto2, ffmpeg and the CUPS client; a `flashbooth` system user;
# the agent in /opt/flashbooth-booth, installed from the checkout this script is run from; the
# systemd unit flashbooth-booth.service; and /usr/local/bin/flashbooth-booth.
#
#   sudo apps/booth-agent/install/install.sh
#   sudo flashbooth-booth enroll https://booths.example.com ABCD-EFGH
#
# Running it again changes only what differs (files are compared before they are written), and
# restarts the service only when the agent or its unit changed. Updating a booth = pulling the
# checkout and running it again (apps/booth-agent/README.md, "Updating").
#
# For tests: FLASHBOOTH_ROOT (default /) prefixes every path it writes, and the system commands
# (apt-get, dpkg-query, systemctl, useradd, usermod, getent, npm, node, curl, gpg) are found on
# PATH, so a test puts fakes first. FLASHBOOTH_NODE_MAJOR picks NodeSource's line (default 22).
set -euo pipefail

ROOT="${FLASHBOOTH_ROOT:-/}"
ROOT="${ROOT%/}" # "" for the real root, so "$ROOT/etc" is /etc
NODE_MAJOR="${FLASHBOOTH_NODE_MAJOR:-22}"
NODE_MIN="20.19"
SERVICE=flashbooth-booth.service
SERVICE_USER=flashbooth
SERVICE_GROUPS=(video lp plugdev)
PACKAGES=(gphoto2 ffmpeg cups-client ca-certificates)

# Paths as the booth sees them; written under $ROOT.
APP_DIR=/opt/flashbooth-booth
BIN_LINK=/usr/local/bin/flashbooth-booth
SETTINGS_DIR=/etc/flashbooth
SETTINGS_FILE=$SETTINGS_DIR/booth.env
DATA_DIR=/var/lib/flashbooth-booth
UNIT_FILE=/etc/systemd/system/$SERVICE

SOURCE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
fail() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}

agent_changed=0
unit_changed=0
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

if [[ -z "${FLASHBOOTH_ROOT:-}" && "$(id -u)" != 0 ]]; then
  fail "run it as root: sudo $0"
fi
[[ -f "$SOURCE/apps/booth-agent/package.json" && -f "$SOURCE/package-lock.json" ]] ||
  fail "run it from a Flashbooth checkout (apps/booth-agent/install/install.sh); $SOURCE is not one"

# Writes stdin to $ROOT$1 with mode $2 when its content or mode differ; says which.
put_file() {
  local target="$ROOT$1" mode="$2" staged="$WORK/staged"
  cat >"$staged"
  if [[ -f "$target" ]] && cmp -s "$staged" "$target" &&
    [[ "$(stat -c %a "$target")" == "${mode#0}" ]]; then
    say "unchanged: $1"
    return 1
  fi
  mkdir -p "$(dirname "$target")"
  install -m "$mode" "$staged" "$target"
  say "written:   $1"
  return 0
}

step "Operating system"
if [[ -r "$ROOT/etc/os-release" ]]; then
  # shellcheck disable=SC1091
  codename="$(. "$ROOT/etc/os-release" && printf '%s' "${VERSION_CODENAME:-}")"
  if [[ "$codename" == bookworm ]]; then
    say "Debian 12 (bookworm) or Raspberry Pi OS bookworm: supported"
  else
    say "warning: made for Debian 12 / Raspberry Pi OS bookworm; this is '${codename:-unknown}'"
  fi
else
  say "warning: no $ROOT/etc/os-release; going on"
fi

step "Packages: Node.js >= $NODE_MIN, ${PACKAGES[*]}"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
node_ok() {
  local version
  version="$(node --version 2>/dev/null)" || return 1
  version="${version#v}"
  # sort -V puts the smaller first: the minimum first means the version is at least that.
  [[ "$(printf '%s\n%s\n' "$NODE_MIN" "$version" | sort -V | head -n1)" == "$NODE_MIN" ]]
}
missing=()
for package in "${PACKAGES[@]}"; do installed "$package" || missing+=("$package"); done
if ! node_ok; then
  # Debian 12's own nodejs is 18; NodeSource's apt repository carries the current lines, signed,
  # and updates with the rest of the system (README, "Why NodeSource").
  say "Node.js $(node --version 2>/dev/null || echo 'not installed') is older than $NODE_MIN: adding NodeSource's node_$NODE_MAJOR.x repository"
  for package in curl gnupg; do installed "$package" || missing+=("$package"); done
  if ((${#missing[@]} > 0)); then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    missing=()
  fi
  mkdir -p "$ROOT/etc/apt/keyrings"
  curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key |
    gpg --dearmor >"$WORK/nodesource.gpg"
  put_file /etc/apt/keyrings/nodesource.gpg 0644 <"$WORK/nodesource.gpg" || true
  put_file /etc/apt/sources.list.d/nodesource.list 0644 <<EOF || true
deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_$NODE_MAJOR.x nodistro main
EOF
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs
elif ((${#missing[@]} == 0)); then
  say "Node.js $(node --version) and every package are installed"
fi
if ((${#missing[@]} > 0)); then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

step "User $SERVICE_USER (groups ${SERVICE_GROUPS[*]})"
if getent passwd "$SERVICE_USER" >/dev/null; then
  say "unchanged: user $SERVICE_USER"
else
  useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
    --shell /usr/sbin/nologin --comment "Flashbooth booth agent" "$SERVICE_USER"
  say "created:   user $SERVICE_USER"
fi
for group in "${SERVICE_GROUPS[@]}"; do
  entry="$(getent group "$group" || true)"
  if [[ -z "$entry" ]]; then
    say "skipped:   group $group does not exist here"
  elif [[ ",${entry##*:}," == *",$SERVICE_USER,"* ]]; then
    say "unchanged: $SERVICE_USER in $group"
  else
    usermod -aG "$group" "$SERVICE_USER"
    say "added:     $SERVICE_USER to $group"
  fi
done

step "The agent in $APP_DIR (from $SOURCE)"
# What the agent needs of the checkout: the workspace root (package.json and the lockfile), the
# agent and the two packages it imports, and the package.json of every other workspace so that
# npm ci finds the lockfile's workspaces (their code is not copied).
stage="$WORK/app"
mkdir -p "$stage"
(
  cd "$SOURCE"
  shopt -s nullglob
  tar --exclude=node_modules --exclude='*.test.ts' --exclude=test -cf - \
    package.json package-lock.json packages/contracts packages/print-composition apps/booth-agent \
    apps/*/package.json packages/*/package.json e2e/package.json
) | tar -C "$stage" -xf -
if [[ -d "$ROOT$APP_DIR/node_modules" ]] && diff -rq --exclude=node_modules "$stage" "$ROOT$APP_DIR" >/dev/null; then
  say "unchanged: $APP_DIR"
else
  next="$ROOT$APP_DIR.next"
  rm -rf "$next"
  mkdir -p "$(dirname "$next")"
  cp -a "$stage" "$next"
  (cd "$next" && npm ci --omit=dev --workspace=@flashbooth/booth-agent --no-audit --no-fund)
  # Swapped in whole, so the running agent never sees half an install.
  if [[ -e "$ROOT$APP_DIR" ]]; then mv "$ROOT$APP_DIR" "$ROOT$APP_DIR.previous"; fi
  mv "$next" "$ROOT$APP_DIR"
  rm -rf "$ROOT$APP_DIR.previous"
  agent_changed=1
  say "installed: $APP_DIR"
fi
target="$APP_DIR/apps/booth-agent/bin/flashbooth-booth"
if [[ "$(readlink "$ROOT$BIN_LINK" 2>/dev/null || true)" == "$target" ]]; then
  say "unchanged: $BIN_LINK"
else
  mkdir -p "$ROOT$(dirname "$BIN_LINK")"
  ln -sfn "$target" "$ROOT$BIN_LINK"
  say "linked:    $BIN_LINK -> $target"
fi

step "Settings folder $SETTINGS_DIR"
if [[ -d "$ROOT$SETTINGS_DIR" && "$(stat -c %a "$ROOT$SETTINGS_DIR")" == 700 ]]; then
  say "unchanged: $SETTINGS_DIR"
else
  install -d -m 0700 "$ROOT$SETTINGS_DIR"
  say "made:      $SETTINGS_DIR (mode 700)"
fi

step "Service $SERVICE"
if put_file "$UNIT_FILE" 0644 <<EOF; then unit_changed=1; fi
# Written by apps/booth-agent/install/install.sh; running it again rewrites this file.
[Unit]
Description=Flashbooth booth agent (camera, printer, delivery queue)
Documentation=file://$APP_DIR/apps/booth-agent/README.md
Wants=network-online.target
After=network-online.target
# Starts once \`flashbooth-booth enroll\` has written the booth's settings.
ConditionPathExists=$SETTINGS_FILE

[Service]
Type=simple
User=$SERVICE_USER
Group=$SERVICE_USER
EnvironmentFile=-$SETTINGS_FILE
Environment=NODE_ENV=production
Environment=BOOTH_DATA_DIR=$DATA_DIR
StateDirectory=flashbooth-booth
StateDirectoryMode=0750
WorkingDirectory=$DATA_DIR
ExecStart=$APP_DIR/apps/booth-agent/bin/flashbooth-booth run
Restart=always
RestartSec=5
# A camera or printer that hangs is not worth waiting long for at shutdown.
TimeoutStopSec=20

[Install]
WantedBy=multi-user.target
EOF
if ((unit_changed)); then systemctl daemon-reload; fi
if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
  say "unchanged: $SERVICE enabled"
else
  systemctl enable "$SERVICE"
  say "enabled:   $SERVICE (starts at boot)"
fi
if ((agent_changed || unit_changed)); then
  if [[ -f "$ROOT$SETTINGS_FILE" ]]; then
    systemctl restart "$SERVICE"
    say "restarted: $SERVICE"
  else
    say "not started: no settings yet"
  fi
else
  say "unchanged: $SERVICE not restarted"
fi

step "Done"
if [[ -f "$ROOT$SETTINGS_FILE" ]]; then
  say "The booth is enrolled. Check it with:  sudo flashbooth-booth doctor"
else
  say "Next: in the console, open Devices > the device > Enroll a booth computer (or register a"
  say "new device), then run the command it shows here:"
  say "  sudo flashbooth-booth enroll <server-url> <code>"
fi
