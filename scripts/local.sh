#!/usr/bin/env bash
# Plays the three games (DIX, Qwixx, Dixxit) locally without Discord: starts the local Discord stand-in
# (cmd/fakediscord) and the bot against it, with the embedded store in a
# temporary directory. Open the URL it prints, type /dix start, /qwixx start
# or /dixxit start, and play.
# Stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

addr="${FAKEDISCORD_ADDR:-127.0.0.1:8765}"
http_addr="${HTTP_ADDR:-127.0.0.1:8080}"
token="fake-bot-token"

# Both ports must be free: say so at once rather than wait for a server
# that another program answers for.
busy() { (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }
for a in "$addr" "$http_addr"; do
  if busy "$a"; then
    echo "local.sh: $a is already in use (another local.sh, or another program)." >&2
    echo "Stop it, or pick other ports: FAKEDISCORD_ADDR=127.0.0.1:8766 HTTP_ADDR=127.0.0.1:8081 $0" >&2
    exit 1
  fi
done

data="$(mktemp -d)"
bin="$data/bin"
mkdir -p "$bin"
# The clean-up runs without set -e, and deaf to a second Ctrl-C: a server
# that Ctrl-C (sent to the whole process group) stopped already makes kill
# fail, and the directory must go all the same.
# A Ctrl-C that comes while the clean-up has begun (the bot stopped
# first, and the script is on its way out) must not cut it short.
cleaning=
cleanup() {
  cleaning=1
  set +e
  trap '' INT TERM
  kill ${fake:-} ${bot:-} 2>/dev/null
  wait 2>/dev/null
  rm -rf "$data"
}
trap cleanup EXIT
trap '[ -n "$cleaning" ] || { cleanup; exit 130; }' INT
trap '[ -n "$cleaning" ] || { cleanup; exit 143; }' TERM

go build -o "$bin/fakediscord" ./cmd/fakediscord
go build -o "$bin/dixbot" ./cmd/dixbot

"$bin/fakediscord" -addr "$addr" -token "$token" -quiet >"$data/fakediscord.log" 2>&1 &
fake=$!
for _ in $(seq 1 50); do
  busy "$addr" && break
  kill -0 "$fake" 2>/dev/null || { cat "$data/fakediscord.log" >&2; exit 1; }
  sleep 0.1
done

DISCORD_TOKEN="$token" DISCORD_API_URL="http://$addr/" DIX_DATA_FILE="$data/dix.db" \
  HTTP_ADDR="$http_addr" LOG_LEVEL="${LOG_LEVEL:-warn}" "$bin/dixbot" &
bot=$!
for _ in $(seq 1 100); do
  busy "$http_addr" && break
  kill -0 "$bot" 2>/dev/null || exit 1
  sleep 0.1
done

echo
echo "The bot is running locally with its three games: DIX, Qwixx and Dixxit."
echo "Open $(sed -n 's/^Web view: //p' "$data/fakediscord.log") in a browser, pick a user,"
echo "and type /dix start, /qwixx start or /dixxit start. Ctrl-C stops everything."
echo
wait "$bot"
