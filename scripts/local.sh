#!/usr/bin/env bash
# Plays DIX locally without Discord: starts the local Discord stand-in
# (cmd/fakediscord) and the bot against it, with the embedded store in a
# temporary directory. Open the web view it prints, type /dix start, and play.
# Stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

addr="${FAKEDISCORD_ADDR:-127.0.0.1:8765}"
token="fake-bot-token"
data="$(mktemp -d)"
bin="$data/bin"
mkdir -p "$bin"

go build -o "$bin/fakediscord" ./cmd/fakediscord
go build -o "$bin/dixbot" ./cmd/dixbot

"$bin/fakediscord" -addr "$addr" -token "$token" &
fake=$!
trap 'kill $fake 2>/dev/null; wait $fake 2>/dev/null; rm -rf "$data"' EXIT

for _ in $(seq 1 50); do
  if (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null; then break; fi
  sleep 0.1
done

echo
echo "Open http://$addr/ in a browser, pick a user, and type /dix start."
echo
DISCORD_TOKEN="$token" DISCORD_API_URL="http://$addr/" DIX_DATA_FILE="$data/dix.db" \
  HTTP_ADDR="${HTTP_ADDR:-127.0.0.1:8080}" "$bin/dixbot"
