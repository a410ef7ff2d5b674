#!/usr/bin/env bash
# Make one admin token per app server for compose.yaml (once; existing tokens are kept).
#
#   images/secrets.sh [DIR]        # default: $CLAWGYM_SECRETS or ./.secrets
#
# The folder is 0700, so no other user of this machine can read the tokens.
# Compose mounts each file into its container as it is on disk, where the
# server runs as uid 10001: as root the files are given to that uid (0600),
# otherwise they are 0644 inside the private folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-${CLAWGYM_SECRETS:-$root/.secrets}}"
umask 077
mkdir -p "$dir"
chmod 0700 "$dir"
for app in calendar mail docs tickets; do
  file="$dir/${app}_admin_token"
  [ -s "$file" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$file"
  if [ "$(id -u)" -eq 0 ]; then
    chown 10001 "$file"
    chmod 0600 "$file"
  else
    chmod 0644 "$file"
  fi
done
echo "admin tokens in $dir"
