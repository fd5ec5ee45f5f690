#!/usr/bin/env bash
# The project's test command: installs what the tests need on a fresh Debian
# machine (redis-server, chromium), then runs formatting and vet checks, the
# whole test suite with the race detector, a short fuzz run of the engine and
# a checked simulation. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== go test -race"
# The end-to-end package sets discordgo's process-wide endpoints, so its
# tests run one at a time within a process; it is split into E2E_SHARDS
# processes that run beside the other packages. The longest tests are dealt
# out first, one per shard in turn, then the others.
shards=${E2E_SHARDS:-3}
heavy=(TestFivePlayersFasterThanTheRateLimits TestBoardMissingInTheChannel TestReplicaKills TestFullGame
  TestBinaryMissingToken TestBotTokenCallsPerTurn TestGameInAThread TestDixxitFullGame TestQwixxFullGame)
mapfile -t all < <(grep -ho '^func Test[A-Za-z0-9_]*' e2e/*_test.go | sed 's/^func //' | sort -u)
order=("${heavy[@]}")
for t in "${all[@]}"; do
  [[ " ${heavy[*]} " == *" $t "* ]] || order+=("$t")
done
declare -a shard
i=0
for t in "${order[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || continue
  shard[i % shards]+="${shard[i % shards]:+|}$t"
  i=$((i + 1))
done
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
failed=0
go test -race -count=1 -timeout 25m $(go list ./... | grep -v '/e2e$') >"$logs/packages" 2>&1 &
pids+=($!)
# One build of the end-to-end tests, run in the package's directory as go
# test would, once per shard.
if go test -race -c -o "$logs/e2e.test" ./e2e >"$logs/e2e-build" 2>&1; then
  for k in $(seq 0 $((shards - 1))); do
    (cd e2e && "$logs/e2e.test" -test.count=1 -test.timeout=25m -test.run "^(${shard[k]})\$" >"$logs/e2e-$k" 2>&1 \
      && echo "ok  	e2e shard $((k + 1)) of $shards" >>"$logs/e2e-$k") &
    pids+=($!)
  done
else
  cat "$logs/e2e-build"
  failed=1
fi
for p in "${pids[@]}"; do
  wait "$p" || failed=1
done
cat "$logs/packages"
for k in $(seq 0 $((shards - 1))); do
  echo "-- e2e shard $((k + 1)) of $shards"
  cat "$logs/e2e-$k" 2>/dev/null || true
done
[ "$failed" -eq 0 ] || { echo "go test failed"; exit 1; }

echo "== fuzz (engine/dix)"
# -fuzzminimizetime bounds the minimising of each new interesting input
# (60 s by default), so the fuzz time is spent executing inputs.
fuzz() {
  go test -run='^$' -fuzz="^$1\$" -fuzztime="$2" -fuzzminimizetime=100x ./engine/dix/ | tee /tmp/dix-fuzz.$$
  awk -v name="$1" '/elapsed: .*execs:/ { gsub(/[s,]/, "", $3); gsub(/,/, "", $5); t=$3; n=$5 }
    END { if (t > 0) printf "%s: %d executions in %d s, %d per second\n", name, n, t, n / t }' /tmp/dix-fuzz.$$
  rm -f /tmp/dix-fuzz.$$
}
# Budgets are counts of executions, not durations: Go 1.26's coordinator can
# fail a duration budget at its deadline with a bare "context deadline
# exceeded" and no failing input (go.dev/issue/75804, fixed in Go 1.27).
# The counts are about 20 s and 10 s of fuzzing on a 2-core machine.
fuzz FuzzApply "${FUZZTIME:-100000x}"
fuzz FuzzUnmarshal "${FUZZTIME:-350000x}"

echo "== checked simulation"
go run ./cmd/dixsim sim -games 2000 -players 4 -check
go run ./cmd/dixsim sim -games 500 -players 1 -check

echo "== all tests passed"
