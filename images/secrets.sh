#!/usr/bin/env bash
# Make the secrets compose.yaml mounts (once; existing ones are kept):
#
#   images/secrets.sh [DIR]        # default: $CLAWGYM_SECRETS or ./.secrets
#
#   DIR/{app}_admin_token   one admin token per app server;
#   DIR/gateway_secret      the secret in the gateway's MCP URL: http://127.0.0.1:8765/SECRET/mcp;
#   DIR/record_key          this machine's record key, the one `orchestrator` seals and checks run records
#                           with ($CLAWGYM_RECORD_KEY, else ~/.local/share/clawgym/record.key, made here when
#                           missing): the gateway seals its records with it, so `verify-digest` and the viewer
#                           on this machine check them. Run again after changing the key.
#
# The folder is 0700, so no other user of this machine can read them.
# Compose mounts each file into its container as it is on disk, where the
# server runs as uid 10001: as root the files are given to that uid (0600),
# otherwise they are 0644 inside the private folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-${CLAWGYM_SECRETS:-$root/.secrets}}"
umask 077
mkdir -p "$dir"
chmod 0700 "$dir"

give() {  # the file readable by the containers' user, and by no other user of this machine
  if [ "$(id -u)" -eq 0 ]; then
    chown 10001 "$1"
    chmod 0600 "$1"
  else
    chmod 0644 "$1"
  fi
}

for name in calendar_admin_token mail_admin_token docs_admin_token tickets_admin_token gateway_secret; do
  file="$dir/$name"
  [ -s "$file" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$file"
  give "$file"
done

# The record key: as orchestrator.record.record_key finds it (and makes it: 64 hex digits, 0600 in a 0700 folder).
if [ -n "${CLAWGYM_RECORD_KEY:-}" ]; then
  key="$CLAWGYM_RECORD_KEY"
else
  keyfile="${XDG_DATA_HOME:-$HOME/.local/share}/clawgym/record.key"
  if [ ! -s "$keyfile" ]; then
    mkdir -p "$(dirname "$keyfile")"
    chmod 0700 "$(dirname "$keyfile")"
    head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$keyfile"
    echo >>"$keyfile"
    chmod 0600 "$keyfile"
  fi
  key="$(tr -d ' \n' <"$keyfile")"
fi
if [ "${#key}" -lt 64 ]; then
  echo "the record key is too short for the gateway (a key file needs 64 hex digits or more)" >&2
  exit 1
fi
printf '%s\n' "$key" >"$dir/record_key.tmp"
mv -f "$dir/record_key.tmp" "$dir/record_key"
give "$dir/record_key"
echo "admin tokens, the gateway's secret and the record key in $dir"
