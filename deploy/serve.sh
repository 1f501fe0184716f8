#!/bin/sh
# The server container's entry point: `terravox serve` with its settings from the
# environment (each optional), the save folder a volume.
#
#   TERRAVOX_SEED | TERRAVOX_PRESET | TERRAVOX_CONFIG   the world (a seed, a preset, a RON file)
#   TERRAVOX_PORT (27050)  TERRAVOX_MAX_PLAYERS (8)  TERRAVOX_NAME  TERRAVOX_MOTD
#   TERRAVOX_PASSWORD  TERRAVOX_ALLOW_FLYING (1: on)  TERRAVOX_METRICS (ADDR:PORT)
#   TERRAVOX_DATA (/data): the save folder (the world, the journal, the server's
#   identity, players.txt, ops.txt, allowlist.txt, bans.txt)
set -eu
data="${TERRAVOX_DATA:-/data}"
set -- serve --save-dir "$data" --bind 0.0.0.0 \
  --port "${TERRAVOX_PORT:-27050}" --max-players "${TERRAVOX_MAX_PLAYERS:-8}"
[ -n "${TERRAVOX_SEED:-}" ] && set -- "$@" --seed "$TERRAVOX_SEED"
[ -n "${TERRAVOX_PRESET:-}" ] && set -- "$@" --preset "$TERRAVOX_PRESET"
[ -n "${TERRAVOX_CONFIG:-}" ] && set -- "$@" --config "$TERRAVOX_CONFIG"
[ -n "${TERRAVOX_NAME:-}" ] && set -- "$@" --name "$TERRAVOX_NAME"
[ -n "${TERRAVOX_MOTD:-}" ] && set -- "$@" --motd "$TERRAVOX_MOTD"
[ -n "${TERRAVOX_PASSWORD:-}" ] && set -- "$@" --password "$TERRAVOX_PASSWORD"
[ "${TERRAVOX_ALLOW_FLYING:-0}" = 1 ] && set -- "$@" --allow-flying
[ -n "${TERRAVOX_METRICS:-}" ] && set -- "$@" --metrics "$TERRAVOX_METRICS"
exec "${TERRAVOX_BIN:-terravox}" "$@"
